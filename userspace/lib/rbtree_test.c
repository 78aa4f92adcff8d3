// SPDX-License-Identifier: GPL-2.0
/*
 * The self-test of rbtree.c (build/rbtree_test; check.sh runs it): random
 * insertions and erasures on trees of a few sizes, both ways of inserting
 * (rb_add_cached(), and a walk with rb_link_node() and rb_insert_color()
 * on a root without a cache), after each the whole tree checked:
 *   - the root black, no red node with a red child, every path from the
 *     root to an empty link with the same number of black nodes;
 *   - each child's parent pointer, the depth at most 2 log2(n + 1);
 *   - in order: sorted by key, equal keys in the order they were inserted;
 *     as many nodes as the model has, exactly the ones it has;
 *   - rb_first_cached() is rb_first(), rb_next() from rb_first() and
 *     rb_prev() from rb_last() visit them all, forward and backward;
 *   - rb_erase_cached() returns the new leftmost exactly when it erased the
 *     leftmost; an erased (cleared) node is RB_EMPTY_NODE, rb_next() NULL.
 * Prints one line; exits 1 at the first failure, saying what and where.
 *   build/rbtree_test [SEED]
 */
#include <stdio.h>
#include <stdlib.h>
#include <linux/rbtree.h>

struct item {
	struct rb_node rb;
	unsigned int key;
	unsigned long seq;	/* insertion order, for ties */
	bool in;
};

#define MAX_NODES 2048

static struct item items[MAX_NODES];
static unsigned long long rng;
static unsigned long seq, ops, checks;
static const char *phase;
static unsigned int span;	/* items[0..span-1] in use */

static unsigned int rnd(unsigned int n)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return (unsigned int)((rng >> 11) % n);
}

#define FAIL(...) do {							\
	printf("rbtree: FAILED (%s, op %lu): ", phase, ops);		\
	printf(__VA_ARGS__);						\
	printf("\n");							\
	exit(1);							\
} while (0)

static struct item *item_of(const struct rb_node *n)
{
	return rb_entry(n, struct item, rb);
}

static bool before(const struct item *a, const struct item *b)
{
	return a->key < b->key || (a->key == b->key && a->seq < b->seq);
}

static bool less(struct rb_node *a, const struct rb_node *b)
{
	return item_of(a)->key < item_of(b)->key;
}

static bool red(const struct rb_node *n)
{
	return n && !(n->__rb_parent_color & 1);
}

/* The black height below n (the empty links' 1 included); counts nodes. */
static int walk(const struct rb_node *n, const struct rb_node *parent,
		int depth, int *maxdepth, unsigned int *count)
{
	int l, r;

	if (!n)
		return 1;
	if (rb_parent(n) != parent)
		FAIL("node %u: parent pointer wrong", item_of(n)->key);
	if (RB_EMPTY_NODE(n) || !item_of(n)->in)
		FAIL("node %u in the tree but not inserted", item_of(n)->key);
	if (red(n) && (red(n->rb_left) || red(n->rb_right)))
		FAIL("red node %u has a red child", item_of(n)->key);
	if (depth > *maxdepth)
		*maxdepth = depth;
	++*count;
	l = walk(n->rb_left, n, depth + 1, maxdepth, count);
	r = walk(n->rb_right, n, depth + 1, maxdepth, count);
	if (l != r)
		FAIL("node %u: black heights %d left, %d right", item_of(n)->key, l, r);
	return l + !red(n);
}

static void check(const struct rb_root *root, const struct rb_node *leftmost,
		  unsigned int want)
{
	const struct rb_node *n, *prev = NULL;
	unsigned int count = 0, seen = 0, lim = 0, i;
	int maxdepth = 0;

	checks++;
	if (red(root->rb_node))
		FAIL("red root");
	walk(root->rb_node, NULL, 1, &maxdepth, &count);
	if (count != want)
		FAIL("%u nodes in the tree, %u inserted", count, want);
	for (i = want + 1; i; i >>= 1)
		lim++;
	if (maxdepth > 2 * lim)
		FAIL("depth %d for %u nodes", maxdepth, want);
	if (leftmost != rb_first(root))
		FAIL("leftmost cache wrong");
	for (n = rb_first(root); n; prev = n, n = rb_next(n)) {
		if (prev && before(item_of(n), item_of(prev)))
			FAIL("in order: %u/%lu after %u/%lu", item_of(n)->key,
			     item_of(n)->seq, item_of(prev)->key, item_of(prev)->seq);
		seen++;
	}
	if (seen != want || prev != rb_last(root))
		FAIL("rb_next visits %u of %u", seen, want);
	seen = 0;
	for (n = rb_last(root); n; prev = n, n = rb_prev(n)) {
		if (seen && before(item_of(prev), item_of(n)))
			FAIL("rb_prev out of order at %u", item_of(n)->key);
		seen++;
	}
	if (seen != want)
		FAIL("rb_prev visits %u of %u", seen, want);
	for (i = 0; i < span; i++)
		if (!items[i].in && (!RB_EMPTY_NODE(&items[i].rb) || rb_next(&items[i].rb)))
			FAIL("node %u not inserted but not cleared", i);
}

/* Inserts by hand: the walk, rb_link_node(), rb_insert_color(). */
static void insert_plain(struct item *it, struct rb_root *root)
{
	struct rb_node **link = &root->rb_node, *parent = NULL;

	while (*link) {
		parent = *link;
		link = it->key < item_of(parent)->key ? &parent->rb_left : &parent->rb_right;
	}
	rb_link_node(&it->rb, parent, link);
	rb_insert_color(&it->rb, root);
}

/*
 * ROUNDS random ops on up to size nodes, keys in 0..keys-1; checked after
 * each op, or every every-th op. cached: through rb_root_cached.
 */
static void run(unsigned int size, unsigned int keys, unsigned long rounds,
		unsigned int every, bool cached)
{
	struct rb_root_cached tree = RB_ROOT_CACHED;
	struct rb_root *root = &tree.rb_root;
	unsigned int nr = 0, i;
	unsigned long r;

	span = size;
	for (i = 0; i < MAX_NODES; i++) {
		RB_CLEAR_NODE(&items[i].rb);
		items[i].in = false;
	}
	for (r = 0; r < rounds; r++) {
		struct item *it = &items[rnd(size)];

		ops++;
		/* fill up early, then about as many erasures as insertions */
		if (!it->in && (nr < size / 2 || rnd(2))) {
			it->key = rnd(keys);
			it->seq = ++seq;
			it->in = true;
			nr++;
			if (cached) {
				struct rb_node *was = tree.rb_leftmost;
				struct rb_node *ret = rb_add_cached(&it->rb, &tree, less);

				if ((ret == &it->rb) != (tree.rb_leftmost == &it->rb) ||
				    (!ret && tree.rb_leftmost != was))
					FAIL("rb_add_cached: wrong return or leftmost");
			} else {
				insert_plain(it, root);
			}
		} else if (it->in) {
			if (cached) {
				bool first = tree.rb_leftmost == &it->rb;
				struct rb_node *next = first ? rb_next(&it->rb) : NULL;

				if (rb_erase_cached(&it->rb, &tree) != next)
					FAIL("rb_erase_cached: wrong return");
			} else {
				rb_erase(&it->rb, root);
			}
			RB_CLEAR_NODE(&it->rb);
			it->in = false;
			nr--;
		}
		if (r % every == 0 || r + 1 == rounds)
			check(root, cached ? tree.rb_leftmost : rb_first(root), nr);
	}
	/* and everything out, leftmost first or at random */
	while (nr) {
		struct rb_node *n = cached ? rb_first_cached(&tree) : NULL;

		if (!n)
			for (i = rnd(size); !items[i].in; i = (i + 1) % size)
				;
		else
			i = item_of(n) - items;
		ops++;
		if (cached)
			rb_erase_cached(&items[i].rb, &tree);
		else
			rb_erase(&items[i].rb, root);
		RB_CLEAR_NODE(&items[i].rb);
		items[i].in = false;
		nr--;
		if (nr % every == 0)
			check(root, cached ? tree.rb_leftmost : rb_first(root), nr);
	}
	if (root->rb_node || (cached && tree.rb_leftmost))
		FAIL("tree not empty at the end");
}

int main(int argc, char **argv)
{
	static const unsigned int sizes[] = { 1, 2, 3, 4, 5, 7, 8, 16, 33, 64, 300, MAX_NODES };
	unsigned long long seed = argc > 1 ? strtoull(argv[1], NULL, 0) : 1;
	unsigned int s, c;

	rng = seed * 0x9e3779b97f4a7c15ULL | 1;
	for (c = 0; c < 2; c++) {
		for (s = 0; s < ARRAY_SIZE(sizes); s++) {
			unsigned int n = sizes[s];
			unsigned int every = n <= 64 ? 1 : n <= 300 ? 7 : 211;

			/* few keys (many ties), then keys all different */
			phase = c ? "rb_add_cached" : "rb_insert_color";
			run(n, n < 8 ? 2 : n / 4, 20000, every, c);
			run(n, 1u << 30, 20000, every, c);
		}
	}
	printf("rbtree: %lu ops, %lu full checks, seed %llu: ok\n", ops, checks, seed);
	return 0;
}
