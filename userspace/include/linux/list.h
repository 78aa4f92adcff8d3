/* SPDX-License-Identifier: GPL-2.0 */
/*
 * User-space stand-in for <linux/list.h>: the doubly linked list and the
 * hlist operations twheel uses, with the kernel's semantics (deleted
 * entries are poisoned, so a use after deletion faults).
 */
#ifndef TW_US_LINUX_LIST_H
#define TW_US_LINUX_LIST_H

#include <linux/kernel.h>

#define LIST_POISON1		((void *)0x100)
#define LIST_POISON2		((void *)0x122)

#define LIST_HEAD_INIT(name)	{ &(name), &(name) }
#define LIST_HEAD(name)		struct list_head name = LIST_HEAD_INIT(name)

static inline void INIT_LIST_HEAD(struct list_head *head)
{
	WRITE_ONCE(head->next, head);
	WRITE_ONCE(head->prev, head);
}

static inline bool list_empty(const struct list_head *head)
{
	return head->next == head;
}

/* Links n between two adjacent entries. */
static inline void tw_us_list_link(struct list_head *n, struct list_head *prev,
				   struct list_head *next)
{
	n->prev = prev;
	n->next = next;
	prev->next = n;
	next->prev = n;
}

static inline void list_add(struct list_head *n, struct list_head *head)
{
	tw_us_list_link(n, head, head->next);
}

static inline void list_add_tail(struct list_head *n, struct list_head *head)
{
	tw_us_list_link(n, head->prev, head);
}

static inline void tw_us_list_unlink(struct list_head *entry)
{
	entry->prev->next = entry->next;
	entry->next->prev = entry->prev;
}

static inline void __list_del(struct list_head *prev, struct list_head *next)
{
	next->prev = prev;
	prev->next = next;
}

static inline void list_del(struct list_head *entry)
{
	tw_us_list_unlink(entry);
	entry->next = LIST_POISON1;
	entry->prev = LIST_POISON2;
}

static inline void list_del_init(struct list_head *entry)
{
	tw_us_list_unlink(entry);
	INIT_LIST_HEAD(entry);
}

/* Takes entry off its list and adds it at the tail of head. */
static inline void list_move_tail(struct list_head *entry,
				  struct list_head *head)
{
	tw_us_list_unlink(entry);
	list_add_tail(entry, head);
}

/* Moves every entry of old (which may be empty) to n; old ends empty. */
static inline void list_replace_init(struct list_head *old,
				     struct list_head *n)
{
	if (list_empty(old)) {
		INIT_LIST_HEAD(n);
		return;
	}
	n->next = old->next;
	n->prev = old->prev;
	n->next->prev = n;
	n->prev->next = n;
	INIT_LIST_HEAD(old);
}

/* Appends the entries of list to head; list ends empty. */
static inline void __list_splice(const struct list_head *list,
				 struct list_head *prev, struct list_head *next)
{
	struct list_head *first = list->next, *last = list->prev;

	first->prev = prev;
	prev->next = first;
	last->next = next;
	next->prev = last;
}

static inline void list_splice_tail_init(struct list_head *list,
					 struct list_head *head)
{
	if (list_empty(list))
		return;
	__list_splice(list, head->prev, head);
	INIT_LIST_HEAD(list);
}

#define list_entry(ptr, type, member)	container_of(ptr, type, member)

#define list_first_entry(head, type, member)				\
	list_entry((head)->next, type, member)

#define list_first_entry_or_null(head, type, member) ({			\
	struct list_head *tw_head = (head);				\
	list_empty(tw_head) ? NULL : list_first_entry(tw_head, type, member); })

#define list_next_entry(pos, member)					\
	list_entry((pos)->member.next, typeof(*(pos)), member)

#define list_for_each_entry(pos, head, member)				\
	for (pos = list_first_entry(head, typeof(*(pos)), member);	\
	     &(pos)->member != (head);					\
	     pos = list_next_entry(pos, member))

/* tmp holds the next entry, so pos may be unlinked in the body. */
#define list_for_each_entry_safe(pos, tmp, head, member)		\
	for (pos = list_first_entry(head, typeof(*(pos)), member),	\
	     tmp = list_next_entry(pos, member);			\
	     &(pos)->member != (head);					\
	     pos = tmp, tmp = list_next_entry(tmp, member))

#define HLIST_HEAD_INIT		{ .first = NULL }

static inline void INIT_HLIST_HEAD(struct hlist_head *head)
{
	head->first = NULL;
}

static inline void INIT_HLIST_NODE(struct hlist_node *n)
{
	n->next = NULL;
	n->pprev = NULL;
}

static inline bool hlist_unhashed(const struct hlist_node *n)
{
	return !n->pprev;
}

static inline bool hlist_empty(const struct hlist_head *head)
{
	return !head->first;
}

static inline void hlist_add_head(struct hlist_node *n, struct hlist_head *head)
{
	n->next = head->first;
	if (n->next)
		n->next->pprev = &n->next;
	head->first = n;
	n->pprev = &head->first;
}

static inline void tw_us_hlist_unlink(struct hlist_node *n)
{
	*n->pprev = n->next;
	if (n->next)
		n->next->pprev = n->pprev;
}

static inline void __hlist_del(struct hlist_node *n)
{
	tw_us_hlist_unlink(n);
}

static inline void hlist_del(struct hlist_node *n)
{
	tw_us_hlist_unlink(n);
	n->next = LIST_POISON1;
	n->pprev = LIST_POISON2;
}

static inline void hlist_del_init(struct hlist_node *n)
{
	if (hlist_unhashed(n))
		return;
	tw_us_hlist_unlink(n);
	INIT_HLIST_NODE(n);
}

#define hlist_entry(ptr, type, member)	container_of(ptr, type, member)

#define hlist_for_each_entry(pos, head, member)				\
	for (struct hlist_node *tw_n = (head)->first;			\
	     tw_n && ((pos) = hlist_entry(tw_n, typeof(*(pos)), member), 1); \
	     tw_n = tw_n->next)

/* tmp walks one node ahead, so pos may be unlinked in the body. */
#define hlist_for_each_entry_safe(pos, tmp, head, member)		\
	for (tmp = (head)->first;					\
	     tmp && (pos = hlist_entry(tmp, typeof(*(pos)), member),	\
		     tmp = tmp->next, true);				\
	     )

#endif /* TW_US_LINUX_LIST_H */
