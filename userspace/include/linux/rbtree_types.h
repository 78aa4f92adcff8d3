/* SPDX-License-Identifier: GPL-2.0 */
/*
 * User-space stand-in for <linux/rbtree_types.h>: the red-black tree's
 * structures, laid out as the kernel's (a node is three words, so struct
 * twheel_timer has the module's size). Written for twheel; see rbtree.c.
 */
#ifndef TW_US_LINUX_RBTREE_TYPES_H
#define TW_US_LINUX_RBTREE_TYPES_H

/*
 * __rb_parent_color: the parent's address with the node's colour in bit 0
 * (0 red, 1 black); a node is at least 4-byte aligned, so the two low bits
 * of its address are free.
 */
struct rb_node {
	unsigned long __rb_parent_color;
	struct rb_node *rb_right;
	struct rb_node *rb_left;
} __attribute__((aligned(sizeof(long))));

struct rb_root {
	struct rb_node *rb_node;
};

/* A root that also keeps its leftmost (first) node, for O(1) rb_first. */
struct rb_root_cached {
	struct rb_root rb_root;
	struct rb_node *rb_leftmost;
};

#define RB_ROOT		(struct rb_root) { NULL, }
#define RB_ROOT_CACHED	(struct rb_root_cached) { { NULL, }, NULL }

#endif /* TW_US_LINUX_RBTREE_TYPES_H */
