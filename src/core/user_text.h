/* Program text with registered code in it (user_text.c): the pieces of user code and the lines they
 * start on, for the registration probe (user.c) and every program's source (program.c). Core only. */
#ifndef CLSCAN_CORE_USER_TEXT_H
#define CLSCAN_CORE_USER_TEXT_H
#include "core.h"

/* Program text as it is written, with the line each piece of user code starts on. */
typedef struct clscan__user_piece { const char *name; unsigned first, count; } clscan__user_piece;
typedef struct clscan__text {
    char *s;
    size_t len, cap;
    unsigned line;                  /* of the next character, from 1 */
    clscan__user_piece pieces[3];   /* declaration, preamble, combine; count 0: absent */
    int ok;                         /* 0 once an allocation failed */
} clscan__text;

#define CLSCAN__TEXT_INIT {.line = 1, .ok = 1}

/* Appends printf-style to t (grown as needed; t->ok = 0 once an allocation fails). */
void clscan__text_append(clscan__text *t, const char *fmt, ...);
/* A piece of user code on lines of its own (k: 0 declaration, 1 preamble, 2 combine). */
void clscan__text_user_lines(clscan__text *t, int k, const char *code);
/* The code a program (or probe) of type and of operator uo (NULL: a built-in one) starts with: the
 * fp64 pragma for double, the registered type's declaration, the operator's code and flag. */
void clscan__text_code(const clscan_context *ctx, clscan_type type, const clscan__user_op *uo, clscan__text *t);
/* A build log of t's text with each line's "file:LINE:" of user code written "combine:k:", into out. */
void clscan__text_rename_log(const clscan__text *t, const char *log, char *out, size_t len);
#endif
