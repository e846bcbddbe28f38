/* test_saves.c: the folder of saved games and the resume command. */
#define _XOPEN_SOURCE 700 /* setenv, mkdtemp */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "saves.h"

static void test_dir_follows_xdg_then_home(void **state)
{
    (void)state;
    char dir[256];
    setenv("HOME", "/home/ann", 1);
    setenv("XDG_DATA_HOME", "/data/ann", 1);
    assert_int_equal(saves_dir(NULL, dir, sizeof dir), 0);
    assert_string_equal(dir, "/data/ann/carcassonne/saves");
    assert_int_equal(saves_dir("/tmp/mine", dir, sizeof dir), 0);
    assert_string_equal(dir, "/tmp/mine");
    setenv("XDG_DATA_HOME", "relative/ignored", 1);
    assert_int_equal(saves_dir(NULL, dir, sizeof dir), 0);
    assert_string_equal(dir, "/home/ann/.local/share/carcassonne/saves");
    unsetenv("XDG_DATA_HOME");
    assert_int_equal(saves_dir(NULL, dir, sizeof dir), 0);
    assert_string_equal(dir, "/home/ann/.local/share/carcassonne/saves");
    unsetenv("HOME");
    assert_int_equal(saves_dir(NULL, dir, sizeof dir), -1);
    char tiny[8];
    assert_int_equal(saves_dir("/a/long/folder", tiny, sizeof tiny), -1);
}

/* A typed name gets ".rec" when it lacks it; a folder is no name. */
static void test_file_name_gets_rec(void **state)
{
    (void)state;
    char out[32];
    assert_int_equal(saves_file_name("final1", out, sizeof out), 0);
    assert_string_equal(out, "final1.rec");
    assert_int_equal(saves_file_name("final1.rec", out, sizeof out), 0);
    assert_string_equal(out, "final1.rec");
    assert_int_equal(saves_file_name("  my game  ", out, sizeof out), 0);
    assert_string_equal(out, "my game.rec");
    assert_int_equal(saves_file_name("~/games/a.txt", out, sizeof out), 0);
    assert_string_equal(out, "~/games/a.txt.rec");
    assert_int_equal(saves_file_name(".rec.d/x", out, sizeof out), 0);
    assert_string_equal(out, ".rec.d/x.rec");
    assert_int_equal(saves_file_name("", out, sizeof out), -1);
    assert_int_equal(saves_file_name("   ", out, sizeof out), -1);
    assert_int_equal(saves_file_name("games/", out, sizeof out), -1);
    assert_int_equal(saves_file_name("..", out, sizeof out), -1);
    assert_int_equal(saves_file_name("a/.", out, sizeof out), -1);
    /* 28 bytes and ".rec" do not fit in 32; 31 bytes ending ".rec" do. */
    assert_int_equal(saves_file_name("a-name-of-twenty-eight-bytes", out, sizeof out), -2);
    assert_int_equal(saves_file_name("a-name-of-thirty-one-bytes!.rec", out, sizeof out), 0);
}

static void test_resolve_and_short(void **state)
{
    (void)state;
    char out[256];
    setenv("HOME", "/home/ann", 1);
    assert_int_equal(saves_resolve("/s", "game.rec", out, sizeof out), 0);
    assert_string_equal(out, "/s/game.rec");
    assert_int_equal(saves_resolve("/s", "./game.rec", out, sizeof out), 0);
    assert_string_equal(out, "./game.rec");
    assert_int_equal(saves_resolve("/s", "~/g.rec", out, sizeof out), 0);
    assert_string_equal(out, "/home/ann/g.rec");
    saves_short("/home/ann/.local/x.rec", out, sizeof out);
    assert_string_equal(out, "~/.local/x.rec");
    saves_short("/home/annette/x.rec", out, sizeof out);
    assert_string_equal(out, "/home/annette/x.rec");
}

static void test_shell_quote(void **state)
{
    (void)state;
    char out[128];
    saves_shell_quote("/usr/bin/carcassonne", out, sizeof out);
    assert_string_equal(out, "/usr/bin/carcassonne");
    saves_shell_quote("/my games/it's.rec", out, sizeof out);
    assert_string_equal(out, "'/my games/it'\\''s.rec'");
    saves_shell_quote("", out, sizeof out);
    assert_string_equal(out, "''");
}

/* A scratch folder with an executable "carcassonne" in bin/. */
static void make_program(char *root, size_t cap)
{
    snprintf(root, cap, "/tmp/carc-saves-XXXXXX");
    assert_non_null(mkdtemp(root));
    char path[300];
    snprintf(path, sizeof path, "%s/bin/sub", root);
    assert_int_equal(saves_make_dir(path), 0); /* parents made too */
    assert_int_equal(saves_make_dir(path), 0); /* and again: no error */
    snprintf(path, sizeof path, "%s/bin/carcassonne", root);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fclose(f);
    assert_int_equal(chmod(path, 0755), 0);
}

static void test_program_name(void **state)
{
    (void)state;
    char root[64], self[128], other[128], path_env[300], out[300];
    make_program(root, sizeof root);
    char *real = realpath(root, NULL);
    assert_non_null(real);
    snprintf(self, sizeof self, "%s/bin/carcassonne", real);
    snprintf(other, sizeof other, "%s/build/carcassonne", real);
    snprintf(path_env, sizeof path_env, "/nonexistent:%s/bin", root);
    saves_program_name(self, path_env, out, sizeof out);
    assert_string_equal(out, "carcassonne"); /* on PATH: the short name works */
    saves_program_name(other, path_env, out, sizeof out);
    assert_string_equal(out, other); /* another carcassonne on PATH: the full path */
    saves_program_name(other, NULL, out, sizeof out);
    assert_string_equal(out, other);
    char file[200];
    snprintf(file, sizeof file, "%s/bin/carcassonne/saves", root);
    assert_int_equal(saves_make_dir(file), -1); /* under a file: refused, nothing made */
    snprintf(file, sizeof file, "%s/bin/sub", root);
    assert_int_equal(rmdir(file), 0);
    snprintf(file, sizeof file, "%s/bin/carcassonne", root);
    assert_int_equal(unlink(file), 0);
    assert_int_equal(saves_make_dir(file), 0); /* now a folder */
    assert_int_equal(rmdir(file), 0);
    snprintf(file, sizeof file, "%s/bin", root);
    assert_int_equal(rmdir(file), 0);
    assert_int_equal(rmdir(root), 0);
    free(real);
}

static void test_resume_command_names_this_program(void **state)
{
    (void)state;
    char cmd[1200], self[512];
    ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
    assert_true(n > 0);
    self[n] = '\0';
    setenv("PATH", "/nonexistent", 1);
    saves_resume_command("/tmp/some game.rec", cmd, sizeof cmd);
    char want[1200];
    snprintf(want, sizeof want, "%s play --load '/tmp/some game.rec'", self);
    assert_string_equal(cmd, want);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_dir_follows_xdg_then_home),
        cmocka_unit_test(test_resolve_and_short),
        cmocka_unit_test(test_file_name_gets_rec),
        cmocka_unit_test(test_shell_quote),
        cmocka_unit_test(test_program_name),
        cmocka_unit_test(test_resume_command_names_this_program),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
