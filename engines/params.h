/* SPDX-License-Identifier: GPL-2.0 */
/*
 * twheel engines' parameters: what a parameter is (struct twheel_param),
 * the table of them made from their one list, engines/param_list.h, and
 * what is done with a struct twheel_config by that table: its defaults
 * and its range check, the module's and the user-space tools'. It
 * includes the headers of the engines whose constants the list names.
 */
#ifndef TWHEEL_PARAMS_H
#define TWHEEL_PARAMS_H

#include <linux/types.h>
#include "twheel.h"
#include "engines/hash.h"
#include "engines/hash_vec.h"
#include "engines/modern.h"
#include "engines/simple.h"

/**
 * struct twheel_param - one engine parameter, as engines/param_list.h has it
 * @name: the module parameter's name
 * @offset: where in struct twheel_config the member it sets is
 * @def: its default
 * @min: the least value it takes
 * @max: the greatest value it takes
 * @pow2: whether it must be a power of two too
 * @desc: its help
 */
struct twheel_param {
	const char *name;
	size_t offset;
	unsigned int def;
	unsigned int min;
	unsigned int max;
	bool pow2;
	const char *desc;
};

extern const struct twheel_param twheel_engine_params[];
extern const unsigned int twheel_nr_engine_params;

unsigned int twheel_param_get(const struct twheel_param *p,
			      const struct twheel_config *cfg);
void twheel_config_default(struct twheel_config *cfg);
const struct twheel_param *twheel_config_check(const struct twheel_config *cfg);

#endif /* TWHEEL_PARAMS_H */
