// SPDX-License-Identifier: GPL-2.0
/*
 * A red-black tree for twheel's user-space builds, behind the kernel's API
 * (linux/rbtree.h here): written for twheel, so that the tools need no
 * kernel source. The rules it keeps:
 *   1. every node is red or black, the root black, an empty link black;
 *   2. a red node has no red child;
 *   3. every path from a node down to an empty link meets the same number
 *      of black nodes (its black height).
 * So the longest path is at most twice the shortest: O(log n) depth.
 *
 * A node's parent and colour share one word (bit 0: 1 black, 0 red), so a
 * node hung by rb_link_node() (the parent's address alone) is red, as an
 * insertion needs it. lib/rbtree_test.c checks the rules on random
 * insertions and erasures.
 */
#include <linux/rbtree.h>

#define TW_RB_BLACK	1UL

static inline struct rb_node *tw_rb_up(const struct rb_node *n)
{
	return (struct rb_node *)(n->__rb_parent_color & ~3UL);
}

/* An empty link is black. */
static inline bool tw_rb_red(const struct rb_node *n)
{
	return n && !(n->__rb_parent_color & TW_RB_BLACK);
}

static inline void tw_rb_set(struct rb_node *n, struct rb_node *parent,
			     unsigned long colour)
{
	n->__rb_parent_color = (unsigned long)parent | colour;
}

/* Points n at a new parent, its colour kept. */
static inline void tw_rb_set_up(struct rb_node *n, struct rb_node *parent)
{
	n->__rb_parent_color = (unsigned long)parent |
			       (n->__rb_parent_color & TW_RB_BLACK);
}

static inline void tw_rb_paint(struct rb_node *n, unsigned long colour)
{
	n->__rb_parent_color = (n->__rb_parent_color & ~TW_RB_BLACK) | colour;
}

/* Makes the link that held old (its parent's, or the root) hold new. */
static inline void tw_rb_relink(struct rb_root *root, struct rb_node *parent,
				struct rb_node *old, struct rb_node *new)
{
	if (!parent)
		root->rb_node = new;
	else if (parent->rb_left == old)
		parent->rb_left = new;
	else
		parent->rb_right = new;
}

/*
 * Rotations about top: its child on the other side (pivot) takes its
 * place and colour, and top goes down under pivot, painted colour.
 *
 *        top              pivot
 *       /   \            /     \
 *      a    pivot  ->  top      c       (tw_rb_turn_left)
 *          /    \     /   \
 *         b      c   a     b
 */
static inline void tw_rb_turn_left(struct rb_root *root, struct rb_node *top,
				   unsigned long colour)
{
	struct rb_node *pivot = top->rb_right, *b = pivot->rb_left;

	top->rb_right = b;
	if (b)
		tw_rb_set_up(b, top);
	pivot->rb_left = top;
	pivot->__rb_parent_color = top->__rb_parent_color;
	tw_rb_relink(root, tw_rb_up(top), top, pivot);
	tw_rb_set(top, pivot, colour);
}

static inline void tw_rb_turn_right(struct rb_root *root, struct rb_node *top,
				    unsigned long colour)
{
	struct rb_node *pivot = top->rb_left, *b = pivot->rb_right;

	top->rb_left = b;
	if (b)
		tw_rb_set_up(b, top);
	pivot->rb_right = top;
	pivot->__rb_parent_color = top->__rb_parent_color;
	tw_rb_relink(root, tw_rb_up(top), top, pivot);
	tw_rb_set(top, pivot, colour);
}

/*
 * node has just been hung (red) on an empty link. The only rule it can
 * break is 2, if its parent is red; going up, each pass either ends or
 * moves the red-red pair two levels higher.
 */
void rb_insert_color(struct rb_node *node, struct rb_root *root)
{
	struct rb_node *parent, *grand, *uncle;

	for (;;) {
		/* node is red: its word is its parent's address alone */
		parent = (struct rb_node *)node->__rb_parent_color;
		if (!parent) {
			/* node is the root: black, every black height +1 */
			tw_rb_set(node, NULL, TW_RB_BLACK);
			return;
		}
		if (!tw_rb_red(parent))
			return;
		/* parent is red, so not the root: grand exists and is black */
		grand = (struct rb_node *)parent->__rb_parent_color;
		uncle = parent == grand->rb_left ? grand->rb_right : grand->rb_left;
		if (tw_rb_red(uncle)) {
			/*
			 * Both of grand's children red: they turn black, grand
			 * red (black heights kept), and grand may now be
			 * under a red parent.
			 */
			tw_rb_paint(parent, TW_RB_BLACK);
			tw_rb_paint(uncle, TW_RB_BLACK);
			tw_rb_paint(grand, 0);
			node = grand;
			continue;
		}
		/*
		 * A black uncle: one or two rotations bring the middle one of
		 * node, parent and grand on top, black, the other two red
		 * under it (a rotation's pivot takes over its top's colour,
		 * and grand was black). That ends it.
		 */
		if (parent == grand->rb_left) {
			if (node == parent->rb_right) {
				/* node goes above parent: grand's left, red */
				tw_rb_turn_left(root, parent, 0);
			}
			tw_rb_turn_right(root, grand, 0);
		} else {
			if (node == parent->rb_left) {
				tw_rb_turn_right(root, parent, 0);
			}
			tw_rb_turn_left(root, grand, 0);
		}
		return;
	}
}

/*
 * A black node came out from under parent, on the side where its link is
 * now short (it holds short, a black node or an empty link): every path
 * through short has one black fewer than the other side's. Going up, each
 * pass either ends or moves the shortage one level higher.
 */
static void tw_rb_erase_fix(struct rb_root *root, struct rb_node *parent)
{
	struct rb_node *short_ = NULL, *sib;

	for (;;) {
		/*
		 * The sibling exists: the other side has a black height of
		 * at least 1.
		 */
		if (short_ != parent->rb_right) {
			sib = parent->rb_right;
			if (tw_rb_red(sib)) {
				/*
				 * A red sibling (parent black): turn it on top
				 * (black, parent's colour), parent red under it:
				 * short's new sibling is black.
				 */
				tw_rb_turn_left(root, parent, 0);
				sib = parent->rb_right;
			}
			if (!tw_rb_red(sib->rb_left) && !tw_rb_red(sib->rb_right)) {
				/*
				 * The sibling's side gives up a black too: it
				 * turns red, and the whole of parent is short.
				 */
				tw_rb_paint(sib, 0);
				if (tw_rb_red(parent)) {
					tw_rb_paint(parent, TW_RB_BLACK);
					return;
				}
				short_ = parent;
				parent = tw_rb_up(parent);
				if (!parent)
					return;
				continue;
			}
			if (!tw_rb_red(sib->rb_right)) {
				/*
				 * Its red child is the inner one: turned on top
				 * of it (black, sib's colour), sib red is now
				 * the outer one.
				 */
				tw_rb_turn_right(root, sib, 0);
				sib = parent->rb_right;
			}
			/*
			 * The sibling (black, its outer child red) turns on
			 * top in parent's colour; parent goes down, black, on
			 * short's side, which gets its black back; the outer
			 * child turns black for the one its side lost.
			 */
			tw_rb_paint(sib->rb_right, TW_RB_BLACK);
			tw_rb_turn_left(root, parent, TW_RB_BLACK);
			return;
		}
		sib = parent->rb_left;
		if (tw_rb_red(sib)) {
			tw_rb_turn_right(root, parent, 0);
			sib = parent->rb_left;
		}
		if (!tw_rb_red(sib->rb_left) && !tw_rb_red(sib->rb_right)) {
			tw_rb_paint(sib, 0);
			if (tw_rb_red(parent)) {
				tw_rb_paint(parent, TW_RB_BLACK);
				return;
			}
			short_ = parent;
			parent = tw_rb_up(parent);
			if (!parent)
				return;
			continue;
		}
		if (!tw_rb_red(sib->rb_left)) {
			tw_rb_turn_left(root, sib, 0);
			sib = parent->rb_left;
		}
		tw_rb_paint(sib->rb_left, TW_RB_BLACK);
		tw_rb_turn_right(root, parent, TW_RB_BLACK);
		return;
	}
}

/*
 * Takes node out. A node with two children is replaced by its successor
 * (the leftmost of its right subtree), which takes its place and colour;
 * what leaves the tree's shape is then a node with at most one child. If
 * that one has a child, the child is red (rule 3) and turns black in its
 * place; if it has none and is black, its parent's side is short a black.
 */
void rb_erase(struct rb_node *node, struct rb_root *root)
{
	struct rb_node *parent = tw_rb_up(node), *child, *succ, *at;
	bool black;

	if (!node->rb_left || !node->rb_right) {
		child = node->rb_left ? node->rb_left : node->rb_right;
		tw_rb_relink(root, parent, node, child);
		if (child) {
			/* node black, child red: child takes node's word */
			child->__rb_parent_color = node->__rb_parent_color;
			return;
		}
		if (node->__rb_parent_color & TW_RB_BLACK && parent)
			tw_rb_erase_fix(root, parent);
		return;
	}

	succ = node->rb_right;
	if (!succ->rb_left) {
		/* the successor is node's right child: it keeps its right */
		at = succ;
	} else {
		do
			succ = succ->rb_left;
		while (succ->rb_left);
		/* succ leaves its place (a left link) to its right child */
		at = tw_rb_up(succ);
		at->rb_left = succ->rb_right;
		succ->rb_right = node->rb_right;
		tw_rb_set_up(node->rb_right, succ);
	}
	child = at == succ ? succ->rb_right : at->rb_left;
	black = succ->__rb_parent_color & TW_RB_BLACK;

	succ->rb_left = node->rb_left;
	tw_rb_set_up(node->rb_left, succ);
	succ->__rb_parent_color = node->__rb_parent_color;
	tw_rb_relink(root, parent, node, succ);

	if (child)
		tw_rb_set(child, at, TW_RB_BLACK);
	else if (black)
		tw_rb_erase_fix(root, at);
}

struct rb_node *rb_first(const struct rb_root *root)
{
	struct rb_node *n = root->rb_node;

	if (n)
		while (n->rb_left)
			n = n->rb_left;
	return n;
}

struct rb_node *rb_last(const struct rb_root *root)
{
	struct rb_node *n = root->rb_node;

	if (n)
		while (n->rb_right)
			n = n->rb_right;
	return n;
}

/*
 * The next node in order: the leftmost of the right subtree if there is
 * one, else the first ancestor reached from its left side.
 */
struct rb_node *rb_next(const struct rb_node *node)
{
	struct rb_node *n, *up;

	if (RB_EMPTY_NODE(node))
		return NULL;
	if (node->rb_right) {
		n = node->rb_right;
		while (n->rb_left)
			n = n->rb_left;
		return n;
	}
	while ((up = tw_rb_up(node)) && node == up->rb_right)
		node = up;
	return up;
}

struct rb_node *rb_prev(const struct rb_node *node)
{
	struct rb_node *n, *up;

	if (RB_EMPTY_NODE(node))
		return NULL;
	if (node->rb_left) {
		n = node->rb_left;
		while (n->rb_right)
			n = n->rb_right;
		return n;
	}
	while ((up = tw_rb_up(node)) && node == up->rb_left)
		node = up;
	return up;
}
