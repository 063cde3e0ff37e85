/* trace_json.h - a small, strict JSON reader, enough for the Chrome Trace Event
 * files fj writes (runtime/trace.c).  Used by tools/fj_timeline.c and by the
 * tests, so that "the trace is valid JSON" is checked by the same code that
 * draws it, on a machine with nothing installed.
 *
 *   json_value *v = json_parse(text, length, error, sizeof error);
 *   const json_value *events = json_get(v, "traceEvents");   // an array
 *   const char *ph = json_string(json_get(&events->items[0], "ph"));
 *   json_free(v);
 *
 * Strict: RFC 8259 syntax only (no comments, no trailing commas), nesting at
 * most JSON_MAX_DEPTH deep; an error says where. */
#ifndef FJ_TRACE_JSON_H
#define FJ_TRACE_JSON_H

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define JSON_MAX_DEPTH 64

typedef enum json_type { JSON_NULL, JSON_FALSE, JSON_TRUE, JSON_NUMBER, JSON_STRING, JSON_ARRAY, JSON_OBJECT } json_type;

typedef struct json_value {
    json_type type;
    double number;             /* JSON_NUMBER */
    char *string;              /* JSON_STRING, decoded to UTF-8 */
    struct json_value *items;  /* JSON_ARRAY elements, JSON_OBJECT values */
    char **keys;               /* JSON_OBJECT keys, one per item */
    size_t count;
} json_value;

typedef struct json_reader {
    const char *p, *end;
    const char *start;
    char *error;
    size_t error_size;
} json_reader;

static inline void json_free_value(json_value *v)
{
    for (size_t i = 0; i < v->count; i++) {
        json_free_value(&v->items[i]);
        if (v->keys)
            free(v->keys[i]);
    }
    free(v->items);
    free(v->keys);
    free(v->string);
}

static inline void json_free(json_value *v)
{
    if (v) {
        json_free_value(v);
        free(v);
    }
}

static inline bool json_fail(json_reader *r, const char *what)
{
    if (r->error && r->error[0] == 0)
        snprintf(r->error, r->error_size, "%s at byte %ld", what, (long)(r->p - r->start));
    return false;
}

static inline void json_skip_space(json_reader *r)
{
    while (r->p < r->end && (*r->p == ' ' || *r->p == '\n' || *r->p == '\r' || *r->p == '\t'))
        r->p++;
}

static inline bool json_literal(json_reader *r, const char *word, json_type type, json_value *out)
{
    size_t n = strlen(word);
    if ((size_t)(r->end - r->p) < n || memcmp(r->p, word, n) != 0)
        return json_fail(r, "unexpected character");
    r->p += n;
    out->type = type;
    return true;
}

static inline bool json_number(json_reader *r, json_value *out)
{
    const char *s = r->p;
    if (s < r->end && *s == '-')
        s++;
    if (s >= r->end || *s < '0' || *s > '9')
        return json_fail(r, "bad number");
    if (*s == '0')
        s++;
    else
        while (s < r->end && *s >= '0' && *s <= '9')
            s++;
    if (s < r->end && *s == '.') {
        s++;
        if (s >= r->end || *s < '0' || *s > '9')
            return json_fail(r, "bad fraction");
        while (s < r->end && *s >= '0' && *s <= '9')
            s++;
    }
    if (s < r->end && (*s == 'e' || *s == 'E')) {
        s++;
        if (s < r->end && (*s == '+' || *s == '-'))
            s++;
        if (s >= r->end || *s < '0' || *s > '9')
            return json_fail(r, "bad exponent");
        while (s < r->end && *s >= '0' && *s <= '9')
            s++;
    }
    char buffer[64];
    size_t n = (size_t)(s - r->p);
    if (n >= sizeof buffer)
        return json_fail(r, "number too long");
    memcpy(buffer, r->p, n);
    buffer[n] = 0;
    out->type = JSON_NUMBER;
    out->number = strtod(buffer, NULL);
    r->p = s;
    return true;
}

static inline int json_hex4(const char *s)
{
    int v = 0;
    for (int i = 0; i < 4; i++) {
        char c = s[i];
        int d = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
        if (d < 0)
            return -1;
        v = v * 16 + d;
    }
    return v;
}

static inline size_t json_utf8(unsigned code, char *out)
{
    if (code < 0x80) {
        out[0] = (char)code;
        return 1;
    }
    if (code < 0x800) {
        out[0] = (char)(0xc0 | (code >> 6));
        out[1] = (char)(0x80 | (code & 0x3f));
        return 2;
    }
    out[0] = (char)(0xe0 | (code >> 12));
    out[1] = (char)(0x80 | ((code >> 6) & 0x3f));
    out[2] = (char)(0x80 | (code & 0x3f));
    return 3;
}

/* Reads a string at r->p (the opening quote) into a new buffer. */
static inline bool json_string_raw(json_reader *r, char **out)
{
    r->p++;
    const char *s = r->p;
    size_t room = 16, n = 0;
    char *text = malloc(room);
    if (!text)
        return json_fail(r, "out of memory");
    for (;;) {
        if (s >= r->end) {
            free(text);
            return json_fail(r, "unterminated string");
        }
        if (n + 4 >= room) {
            char *grown = realloc(text, room *= 2);
            if (!grown) {
                free(text);
                return json_fail(r, "out of memory");
            }
            text = grown;
        }
        unsigned char c = (unsigned char)*s;
        if (c == '"')
            break;
        if (c < 0x20) {
            free(text);
            r->p = s;
            return json_fail(r, "control character in string");
        }
        if (c != '\\') {
            text[n++] = (char)c;
            s++;
            continue;
        }
        if (s + 1 >= r->end) {
            free(text);
            return json_fail(r, "unterminated escape");
        }
        char e = s[1];
        const char *simple = strchr("\"\\/bfnrt", e);
        if (e && simple) {
            text[n++] = "\"\\/\b\f\n\r\t"[simple - "\"\\/bfnrt"];
            s += 2;
        } else if (e == 'u' && r->end - s >= 6 && json_hex4(s + 2) >= 0) {
            n += json_utf8((unsigned)json_hex4(s + 2), text + n);
            s += 6;
        } else {
            free(text);
            r->p = s;
            return json_fail(r, "bad escape");
        }
    }
    text[n] = 0;
    r->p = s + 1;
    *out = text;
    return true;
}

static inline bool json_value_read(json_reader *r, json_value *out, int depth);

/* Appends a zeroed slot to out->items (and out->keys for objects). */
static inline json_value *json_append(json_reader *r, json_value *out, size_t *room)
{
    if (out->count == *room) {
        size_t grown_room = *room ? 2 * *room : 8;
        json_value *items = realloc(out->items, grown_room * sizeof *items);
        if (!items)
            return json_fail(r, "out of memory"), NULL;
        out->items = items;
        if (out->type == JSON_OBJECT) {
            char **keys = realloc(out->keys, grown_room * sizeof *keys);
            if (!keys)
                return json_fail(r, "out of memory"), NULL;
            out->keys = keys;
        }
        *room = grown_room;
    }
    json_value *slot = &out->items[out->count];
    memset(slot, 0, sizeof *slot);
    if (out->keys)
        out->keys[out->count] = NULL;
    out->count++;
    return slot;
}

static inline bool json_container(json_reader *r, json_value *out, int depth, bool is_object)
{
    char close = is_object ? '}' : ']';
    size_t room = 0;
    out->type = is_object ? JSON_OBJECT : JSON_ARRAY;
    r->p++;
    json_skip_space(r);
    if (r->p < r->end && *r->p == close) {
        r->p++;
        return true;
    }
    for (;;) {
        json_value *slot = json_append(r, out, &room);
        if (!slot)
            return false;
        if (is_object) {
            json_skip_space(r);
            if (r->p >= r->end || *r->p != '"')
                return json_fail(r, "expected a key");
            if (!json_string_raw(r, &out->keys[out->count - 1]))
                return false;
            json_skip_space(r);
            if (r->p >= r->end || *r->p != ':')
                return json_fail(r, "expected ':'");
            r->p++;
        }
        if (!json_value_read(r, slot, depth + 1))
            return false;
        json_skip_space(r);
        if (r->p < r->end && *r->p == ',') {
            r->p++;
            continue;
        }
        if (r->p < r->end && *r->p == close) {
            r->p++;
            return true;
        }
        return json_fail(r, is_object ? "expected ',' or '}'" : "expected ',' or ']'");
    }
}

static inline bool json_value_read(json_reader *r, json_value *out, int depth)
{
    if (depth > JSON_MAX_DEPTH)
        return json_fail(r, "nested too deeply");
    json_skip_space(r);
    if (r->p >= r->end)
        return json_fail(r, "unexpected end");
    switch (*r->p) {
    case '{':
        return json_container(r, out, depth, true);
    case '[':
        return json_container(r, out, depth, false);
    case '"':
        out->type = JSON_STRING;
        return json_string_raw(r, &out->string);
    case 't':
        return json_literal(r, "true", JSON_TRUE, out);
    case 'f':
        return json_literal(r, "false", JSON_FALSE, out);
    case 'n':
        return json_literal(r, "null", JSON_NULL, out);
    default:
        return json_number(r, out);
    }
}

/* Parses `length` bytes; NULL on error, with a message in `error`. */
static inline json_value *json_parse(const char *text, size_t length, char *error, size_t error_size)
{
    json_reader r = {text, text + length, text, error, error_size};
    if (error && error_size)
        error[0] = 0;
    json_value *v = calloc(1, sizeof *v);
    if (!v)
        return NULL;
    bool ok = json_value_read(&r, v, 0);
    json_skip_space(&r);
    if (ok && r.p != r.end)
        ok = json_fail(&r, "text after the value");
    if (!ok) {
        json_free(v);
        return NULL;
    }
    return v;
}

/* Reads a whole file; NULL if it cannot.  *length gets its size. */
static inline char *json_read_file(const char *path, size_t *length)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    size_t room = 1 << 16, n = 0;
    char *text = malloc(room);
    while (text) {
        n += fread(text + n, 1, room - n, f);
        if (n < room)
            break;
        char *grown = realloc(text, room *= 2);
        if (!grown)
            free(text);
        text = grown;
    }
    fclose(f);
    *length = n;
    return text;
}

/* The member `key` of an object, or NULL. */
static inline const json_value *json_get(const json_value *object, const char *key)
{
    if (!object || object->type != JSON_OBJECT)
        return NULL;
    for (size_t i = 0; i < object->count; i++)
        if (strcmp(object->keys[i], key) == 0)
            return &object->items[i];
    return NULL;
}

/* A string's text, or "" if v is not a string. */
static inline const char *json_text(const json_value *v) { return v && v->type == JSON_STRING ? v->string : ""; }

/* A number, or `otherwise` if v is not a number. */
static inline double json_num(const json_value *v, double otherwise)
{
    return v && v->type == JSON_NUMBER ? v->number : otherwise;
}

#endif
