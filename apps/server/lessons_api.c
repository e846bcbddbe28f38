/* lessons_api.c: the tutorial's progress kept in an account. */
#include "lessons_api.h"

#include <string.h>

static json_t *fail(unsigned *status, unsigned code, const char *error, const char *message)
{
    *status = code;
    return json_pack("{s:s, s:s}", "error", error, "message", message);
}

static int add_lesson(void *ctx, const char *lesson)
{
    return json_array_append_new(ctx, json_string(lesson)) != 0;
}

json_t *lessons_api_list(storage *store, int64_t account, unsigned *status)
{
    json_t *done = json_array();
    if (!done || storage_lessons_done(store, account, add_lesson, done) != 0) {
        json_decref(done);
        return fail(status, 500, "internal", "the server failed: try again");
    }
    *status = 200;
    return json_pack("{s:o}", "done", done);
}

/* Whether `v` is a lesson's id: 1 to STORED_LESSON_ID_BYTES - 1 of a-z,
 * 0-9 and '-'. */
static int lesson_id(const json_t *v)
{
    if (!json_is_string(v))
        return 0;
    size_t len = json_string_length(v);
    const char *s = json_string_value(v);
    if (len == 0 || len >= STORED_LESSON_ID_BYTES)
        return 0;
    for (size_t i = 0; i < len; i++)
        if (!((s[i] >= 'a' && s[i] <= 'z') || (s[i] >= '0' && s[i] <= '9') || s[i] == '-'))
            return 0;
    return 1;
}

json_t *lessons_api_done(storage *store, int64_t account, json_t *body, int64_t now_ms,
                         unsigned *status)
{
    json_t *lessons = json_object_get(body, "lessons"), *v;
    size_t n = json_array_size(lessons), i;
    if (!json_is_array(lessons) || n == 0 || n > LESSONS_MAX_ASKED)
        return fail(status, 400, "bad_field", "'lessons' must be a list of 1 to 64 lesson ids");
    json_array_foreach(lessons, i, v)
    {
        if (!lesson_id(v))
            return fail(status, 400, "bad_field",
                        "a lesson id is 1 to 32 of the letters a-z, digits and '-'");
    }
    json_array_foreach(lessons, i, v)
    {
        if (storage_lesson_done(store, account, json_string_value(v), now_ms) != 0)
            return fail(status, 500, "internal", "the server failed: try again");
    }
    return lessons_api_list(store, account, status);
}
