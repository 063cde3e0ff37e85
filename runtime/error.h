/* error.h - the calling thread's account of its last refusal, which
 * fj_last_error_detail returns (include/fj.h), and fj_strerror (error.c). */
#ifndef FJ_ERROR_H
#define FJ_ERROR_H

/* The detail's room, ending NUL included; a longer account is cut. */
#define ERROR_DETAIL_SIZE 256

/* Sets the detail (printf-style: the setting or argument, its value, what was
 * expected) and returns `code`, so a refusal reads
 * `return error_refuse(FJ_EINVAL, "grain=%lld: ...", ...)`. */
int error_refuse(int code, const char *format, ...) __attribute__((format(printf, 2, 3)));

/* Empties the detail: a call that sets it on failure clears it first, so what
 * a caller reads after that call's failure is about that call. */
void error_clear(void);

/* A NULL pointer where a public call needs one: FJ_EINVAL, with the detail
 * "CALL: ARGUMENT is NULL". */
int error_null(const char *call, const char *argument);

#endif
