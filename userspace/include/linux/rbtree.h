/* SPDX-License-Identifier: GPL-2.0 */
/*
 * User-space stand-in for <linux/rbtree.h>: the part of the kernel's
 * red-black tree API that twheel uses, with the kernel's semantics
 * (Documentation/core-api/rbtree.rst). The caller walks down to the empty
 * link where its node belongs, hangs it there with rb_link_node() and
 * lets rb_insert_color() restore the balance; rb_erase() takes a node out.
 * The functions are in ../../lib/rbtree.c, written for twheel (user space only:
 * the module uses the kernel's own).
 */
#ifndef TW_US_LINUX_RBTREE_H
#define TW_US_LINUX_RBTREE_H

#include <linux/kernel.h>
#include <linux/rbtree_types.h>

#define rb_parent(r)	((struct rb_node *)((r)->__rb_parent_color & ~3UL))
#define rb_entry(ptr, type, member)	container_of(ptr, type, member)
#define rb_entry_safe(ptr, type, member) ({				\
	typeof(ptr) tw_rb_p = (ptr);					\
	tw_rb_p ? rb_entry(tw_rb_p, type, member) : NULL; })

#define RB_EMPTY_ROOT(root)	(READ_ONCE((root)->rb_node) == NULL)

/* A node in no tree points to itself: set by RB_CLEAR_NODE(), told by RB_EMPTY_NODE(). */
#define RB_EMPTY_NODE(node)	\
	((node)->__rb_parent_color == (unsigned long)(node))
#define RB_CLEAR_NODE(node)	\
	((node)->__rb_parent_color = (unsigned long)(node))

void rb_insert_color(struct rb_node *node, struct rb_root *root);
void rb_erase(struct rb_node *node, struct rb_root *root);

/* In-order neighbours and ends; NULL past the ends (and for a cleared node). */
struct rb_node *rb_next(const struct rb_node *node);
struct rb_node *rb_prev(const struct rb_node *node);
struct rb_node *rb_first(const struct rb_root *root);
struct rb_node *rb_last(const struct rb_root *root);

/* Hangs a new (red, childless) node on *link, an empty link of parent. */
static inline void rb_link_node(struct rb_node *node, struct rb_node *parent,
				struct rb_node **link)
{
	node->__rb_parent_color = (unsigned long)parent;
	node->rb_left = NULL;
	node->rb_right = NULL;
	*link = node;
}

/* The leftmost node, kept up to date by the *_cached calls: O(1). */
#define rb_first_cached(root)	((root)->rb_leftmost)

/* leftmost: the walk down to node's link went left at every step. */
static inline void rb_insert_color_cached(struct rb_node *node,
					  struct rb_root_cached *root,
					  bool leftmost)
{
	if (leftmost)
		root->rb_leftmost = node;
	rb_insert_color(node, &root->rb_root);
}

/* Returns the new leftmost node if node was the leftmost, else NULL. */
static inline struct rb_node *rb_erase_cached(struct rb_node *node,
					      struct rb_root_cached *root)
{
	struct rb_node *next = NULL;

	if (root->rb_leftmost == node) {
		next = rb_next(node);
		root->rb_leftmost = next;
	}
	rb_erase(node, &root->rb_root);
	return next;
}

/*
 * Inserts node after every node it is not less() than (equal ones keep
 * their insertion order). Returns node if it became the leftmost, else NULL.
 */
static __always_inline struct rb_node *
rb_add_cached(struct rb_node *node, struct rb_root_cached *tree,
	      bool (*less)(struct rb_node *, const struct rb_node *))
{
	struct rb_node **link = &tree->rb_root.rb_node, *parent = NULL;
	bool leftmost = true;

	while (*link) {
		parent = *link;
		if (less(node, parent)) {
			link = &parent->rb_left;
		} else {
			link = &parent->rb_right;
			leftmost = false;
		}
	}
	rb_link_node(node, parent, link);
	rb_insert_color_cached(node, tree, leftmost);
	return leftmost ? node : NULL;
}

#endif /* TW_US_LINUX_RBTREE_H */
