# run_scenario.awk: the checks of run_scenario.sh in one process.
#
# awk -f run_scenario.awk RECORD STDOUT STDERR, with the environment's
# SCENARIO_NAME (the record's file name), SCENARIO_STATUS (the exit status
# of `carcassonne replay --json`), SCENARIO_NERR (the lines wc counts on
# its standard error) and SCENARIO_COMMAND (the command, for the report).
# Prints "ok [NAME] ..." and exits 0, or a "FAIL [NAME] ..." line for each
# expectation not met, then the command's output, and exits 1. The
# expectation lines are described in run_scenario.sh and README.md.
#
# The JSON is read as the earlier sed pipelines read it (its blanks
# removed; a key's last occurrence; an object's fields as optional minus
# and digits), so every message is the one those pipelines printed.

# The position of the last occurrence of t in s (0: none).
function last_index(s, t,    at, k) {
    at = 0
    while ((k = index(substr(s, at + 1), t)) > 0)
        at += k
    return at
}

# "key":[a,b,...] -> "a,b,..." ("" when absent).
function array_body(s, key,    at, rest, end) {
    at = last_index(s, "\"" key "\":[")
    if (at == 0)
        return ""
    rest = substr(s, at + length(key) + 4)
    end = index(rest, "]")
    if (end == 0)
        return ""
    return substr(rest, 1, end - 1)
}

# "key":[a,b,...] -> "a b ...".
function json_array(s, key,    list) {
    list = array_body(s, key)
    gsub(/,/, " ", list)
    return list
}

# "key":value -> value, up to the next ',' or '}' ("" when absent).
function json_scalar(s, key,    at, rest) {
    at = last_index(s, "\"" key "\":")
    if (at == 0)
        return ""
    rest = substr(s, at + length(key) + 3)
    match(rest, /^[^,}]*/)
    return substr(rest, 1, RLENGTH)
}

# "key":[{...},{...}] and fields "f1 f2 ..." -> "f1/f2/... f1/f2/... "
# (a group per object, '?' for a field that is not a number).
function json_objects(s, key, fields,    list, n, objs, i, nf, f, j, at, rest, v, out, group) {
    list = array_body(s, key)
    n = split(list, objs, "}")
    nf = split(fields, f, " ")
    out = ""
    for (i = 1; i <= n; i++) {
        if (index(objs[i], "{") == 0)
            continue
        group = ""
        for (j = 1; j <= nf; j++) {
            at = last_index(objs[i], "\"" f[j] "\":")
            v = ""
            if (at > 0) {
                rest = substr(objs[i], at + length(f[j]) + 3)
                match(rest, /^-?[0-9]*/)
                v = substr(rest, 1, RLENGTH)
            }
            if (v == "")
                v = "?"
            group = group (j > 1 ? "/" : "") v
        }
        out = out group " "
    }
    return out
}

# Runs of blanks as one, one blank trimmed at each end.
function norm(s) {
    gsub(/[ \t]+/, " ", s)
    sub(/^ /, "", s)
    sub(/ $/, "", s)
    return s
}

function fail(message) {
    failures++
    print "FAIL [" name "] " message
}

function check(key, expected, actual) {
    if (norm(expected) != norm(actual))
        fail(key ": expected '" norm(expected) "', got '" norm(actual) "'")
}

function show_output(    line) {
    print "---- command: " ENVIRON["SCENARIO_COMMAND"]
    print "---- exit status: " status
    print "---- stdout:"
    while ((getline line < out_file) > 0)
        print line
    close(out_file)
    print "---- stderr:"
    while ((getline line < err_file) > 0)
        print line
    close(err_file)
}

BEGIN {
    name = ENVIRON["SCENARIO_NAME"]
    status = ENVIRON["SCENARIO_STATUS"] ""
    record = ARGV[1]
    out_file = ARGV[2]
    err_file = ARGV[3]
    ARGC = 1
    failures = 0

    # The expectations: the first line of each key (its value without the
    # blanks around it), and every expect-error line.
    n_errors = 0
    while ((getline line < record) > 0) {
        gsub(/\r/, "", line)
        if (!match(line, /^#[[:space:]]*expect-[a-z-]+:[[:space:]]*/))
            continue
        key = line
        sub(/^#[[:space:]]*expect-/, "", key)
        sub(/:.*/, "", key)
        value = substr(line, RLENGTH + 1)
        sub(/[[:space:]]+$/, "", value)
        if (!(key in has)) {
            has[key] = 1
            want[key] = value
        }
        if (key == "error")
            errors[++n_errors] = value
    }

    want_exit = ("exit" in has && want["exit"] != "") ? want["exit"] : "0"
    if (status != want_exit) {
        fail("exit status: expected " want_exit ", got " status)
        show_output()
        exit 1
    }

    # The command's output and standard error.
    out_lines = 0
    json = ""
    while ((getline line < out_file) > 0) {
        out_lines++
        json = json line
    }
    close(out_file)
    gsub(/[ \t\r]/, "", json)
    n_err_lines = 0
    while ((getline line < err_file) > 0)
        err_lines[++n_err_lines] = line
    close(err_file)

    if (want_exit != "0") {
        if (!("error" in has))
            fail("an invalid record needs '# expect-error:'")
        if (out_lines > 0)
            fail("standard output should be empty for an invalid record")
        # Every expect-error line is a fixed string some line of standard
        # error must contain.
        for (i = 1; i <= n_errors; i++) {
            found = 0
            for (j = 1; j <= n_err_lines && !found; j++)
                if (index(err_lines[j], errors[i]) > 0)
                    found = 1
            if (!found)
                fail("standard error: expected to contain '" errors[i] "'")
        }
        nerr = ENVIRON["SCENARIO_NERR"] + 0
        if (nerr != 1)
            fail("standard error: expected one message line, got " nerr " lines")
        if (failures) {
            show_output()
            exit 1
        }
        said = ""
        for (j = 1; j <= n_err_lines; j++)
            said = said (j > 1 ? "\n" : "") err_lines[j]
        sub(/\n+$/, "", said)
        print "ok [" name "] exit " status ": " said
        exit 0
    }

    # A valid record.
    if (!("scores" in has))
        fail("a valid record needs '# expect-scores:'")
    if (!("finished" in has))
        fail("a valid record needs '# expect-finished:'")
    check("scores", want["scores"], json_array(json, "scores"))
    check("finished", want["finished"], json_scalar(json, "finished"))
    if ("breakdown" in has)
        check("breakdown", want["breakdown"], json_objects(json, "breakdown", "roads cities cloisters farms"))
    if ("supply" in has)
        check("supply", want["supply"], json_array(json, "supply"))
    if ("winners" in has)
        check("winners", want["winners"], json_array(json, "winners"))
    if ("goods" in has)
        check("goods", want["goods"], json_objects(json, "goods", "wine grain cloth"))
    if ("goods-points" in has)
        check("goods-points", want["goods-points"], json_array(json, "goods_points"))
    if ("figures" in has)
        check("figures", want["figures"], json_objects(json, "figures", "followers large builder pig"))
    if ("turns" in has)
        check("turns", want["turns"], json_objects(json, "history", "player"))
    if ("players" in has)
        check("players", want["players"], json_scalar(json, "players"))
    if (failures) {
        show_output()
        exit 1
    }
    print "ok [" name "] scores " json_array(json, "scores") ", finished " json_scalar(json, "finished")
    exit 0
}
