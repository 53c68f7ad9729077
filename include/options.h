// SPDX-License-Identifier: MIT
// The one table of engine options, read by both dialects: each row has its name in each
// dialect, its type, range and default, and the facade calls that apply and read it.
#ifndef OPTIONS_H_INCLUDED
#define OPTIONS_H_INCLUDED

#include <stddef.h>

#include "engine.h"

typedef enum OptionType {
    OPTION_SPIN,    // an integer in min..max
    OPTION_CHECK,   // true or false
    OPTION_COMBO,   // one of choices (the index is the value applied)
    OPTION_BUTTON,  // no value: applying it is the action
    OPTION_IGNORED, // another engine's option that clients send: accepted, changes nothing
    OPTION_STRING,  // text (a path): apply_text and get_text
} OptionType;

typedef enum OptionDialect { OPTION_UCI, OPTION_HUB } OptionDialect;

enum { OPTION_CHOICES_MAX = 4, OPTION_TEXT_MAX = 96 };

typedef struct Option {
    const char *name[2]; // by OptionDialect; NULL where the dialect does not have it
    OptionType type;
    int64_t min, max, def;                   // range (spin) and default (spin, check, combo)
    const char *choices[OPTION_CHOICES_MAX]; // combo values, NULL after the last
    bool (*apply)(Engine *e, int64_t value); // false: refused (the engine keeps its state)
    int64_t (*get)(const Engine *e);
    const char *failure; // printf format of a refusal of an in-range value (%lld: value)
    bool unlisted;       // accepted but not declared (another name of a listed option)
    // OPTION_STRING: applies text (false with a reason in err, nothing changed) and reads it.
    bool (*apply_text)(Engine *e, const char *text, char *err, size_t errlen);
    void (*get_text)(const Engine *e, char *buf, size_t len);
} Option;

// Number of rows, and row i.
int options_count(void);
const Option *options_at(int i);

// The row named name in dialect d (UCI names ignore case); NULL if none.
const Option *options_find(OptionDialect d, const char *name);

// Parses text (NULL when no value was given) as a value of o and applies it. On a bad or
// refused value returns false with a one-line reason in err, and nothing changed.
bool options_set(Engine *e, const Option *o, OptionDialect d, const char *text, char *err,
                 size_t errlen);

// The current (or default) value of o as text: "64", "true", "algebraic".
void options_value_text(const Option *o, int64_t value, char *buf, size_t len);

// The current value of o as text, for any type (a string option's text).
void options_current_text(const Engine *e, const Option *o, char *buf, size_t len);

#endif
