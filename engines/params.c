// SPDX-License-Identifier: GPL-2.0
/*
 * twheel engines' parameters: the table made from their list
 * (engines/param_list.h), the defaults and the range check every user of
 * struct twheel_config shares, the module and the user-space tools alike.
 * Pure: no allocation, no lock, no log.
 */
#include <linux/export.h>
#include <linux/kernel.h>
#include <linux/log2.h>
#include <linux/stddef.h>
#include "engines/params.h"

const struct twheel_param twheel_engine_params[] = {
#define TWHEEL_PARAM(field, pdef, pmin, pmax, ppow2, pdesc, pname)	\
	{ .name = #pname, .offset = offsetof(struct twheel_config, field), \
	  .desc = pdesc, .def = pdef, .min = pmin, .max = pmax, .pow2 = ppow2 },
#include "engines/param_list.h"
#undef TWHEEL_PARAM
};
EXPORT_SYMBOL_GPL(twheel_engine_params);

const unsigned int twheel_nr_engine_params = ARRAY_SIZE(twheel_engine_params);
EXPORT_SYMBOL_GPL(twheel_nr_engine_params);

static unsigned int *twheel_param_at(const struct twheel_param *p,
				     struct twheel_config *cfg)
{
	return (unsigned int *)((char *)cfg + p->offset);
}

/**
 * twheel_param_get() - the value of one parameter in a config
 * @p: the parameter, an entry of twheel_engine_params[]
 * @cfg: the config
 *
 * Return: the member of @cfg that @p sets.
 */
unsigned int twheel_param_get(const struct twheel_param *p,
			      const struct twheel_config *cfg)
{
	return *(const unsigned int *)((const char *)cfg + p->offset);
}
EXPORT_SYMBOL_GPL(twheel_param_get);

/**
 * twheel_config_default() - every parameter of a config at its default
 * @cfg: the config; its other members (cap) are left as they are
 *
 * What the module loads with when insmod names no parameter, and what the
 * user-space tools make their engines with.
 */
void twheel_config_default(struct twheel_config *cfg)
{
	unsigned int i;

	for (i = 0; i < twheel_nr_engine_params; i++)
		*twheel_param_at(&twheel_engine_params[i], cfg) =
			twheel_engine_params[i].def;
}
EXPORT_SYMBOL_GPL(twheel_config_default);

/**
 * twheel_config_check() - the first parameter of a config out of its range
 * @cfg: the config
 *
 * Checks the parameters in the order of engines/param_list.h.
 *
 * Return: the first parameter below its min, above its max, or not a power
 * of two where it must be one; NULL if every one is in range.
 */
const struct twheel_param *twheel_config_check(const struct twheel_config *cfg)
{
	const struct twheel_param *p;
	unsigned int i, v;

	for (i = 0; i < twheel_nr_engine_params; i++) {
		p = &twheel_engine_params[i];
		v = twheel_param_get(p, cfg);
		if (v < p->min || v > p->max || (p->pow2 && !is_power_of_2(v)))
			return p;
	}
	return NULL;
}
EXPORT_SYMBOL_GPL(twheel_config_check);
