#!/bin/sh
# tmux_tests.sh: drives the real `carcassonne play` in a detached tmux
# (send-keys, capture-pane) and checks what the screen shows.
# Usage: tmux_tests.sh TEST CARCASSONNE; run in a scratch directory.
# Every wait polls the screen with a time limit, no fixed sleeps.
set -eu

test_name=$1
bin=$2
sock="carc-tui-$test_name-$$"
session=game
screen_file=screen.txt
export LANG=C.UTF-8 LC_ALL=C.UTF-8
# Saves go under the scratch folder, never the real home; the scratch
# folder is the home, so the game shows the saves folder as ~/data/...
HOME=$(pwd)
XDG_DATA_HOME="$HOME/data"
export HOME XDG_DATA_HOME

tm() { tmux -L "$sock" "$@"; }
cleanup() { tm kill-server >/dev/null 2>&1 || true; }
trap cleanup EXIT

fail() {
    echo "FAIL ($test_name): $*" >&2
    echo "--- screen:" >&2
    cat "$screen_file" >&2 || true
    exit 1
}

# start COLS LINES ARGS...: the game in a fresh tmux server; the pane
# prints EXIT=<status> when the game ends, and stays.
start() {
    cols=$1 lines=$2
    shift 2
    tm -f /dev/null new-session -d -s "$session" -x "$cols" -y "$lines" \
        "\"$bin\" play $* ; echo EXIT=\$?; sleep 60"
}

# capture: the screen into $screen_file, once it has stayed the same for
# 20 ms (at most 20 tries): a slow game (a sanitizer build, a loaded
# machine) can be read in the middle of drawing a screen, its top lines
# new and its bottom ones not yet (tui.tmux.hint failed so under ASan).
capture() {
    tm capture-pane -p -t "$session" >"$screen_file"
    tries=0
    while [ "$tries" -lt 20 ]; do
        sleep 0.02
        tm capture-pane -p -t "$session" >"$screen_file.again"
        cmp -s "$screen_file" "$screen_file.again" && return 0
        mv "$screen_file.again" "$screen_file"
        tries=$((tries + 1))
    done
}

# The waits give up after WAIT_TENTHS polls (30 s at the least): long
# enough for a loaded machine (at a load of 4 to 5 on two cores a few
# screens took over 10 s), and a passing test never waits for it.
WAIT_TENTHS=300

# wait_for TEXT [SECONDS]: until the screen shows TEXT (a fixed string).
wait_for() {
    limit=$(( ${2:-30} * 10 ))
    i=0
    while [ "$i" -lt "$limit" ]; do
        capture
        grep -qF -- "$1" "$screen_file" && return 0
        sleep 0.1
        i=$((i + 1))
    done
    fail "the screen never showed '$1'"
}

# wait_for_re REGEX WHY: until a line of the screen matches REGEX (grep's
# basic syntax); fails with WHY after WAIT_TENTHS polls.
wait_for_re() {
    i=0
    while [ "$i" -lt "$WAIT_TENTHS" ]; do
        capture
        grep -q -- "$1" "$screen_file" && return 0
        sleep 0.1
        i=$((i + 1))
    done
    fail "$2"
}

# wait_for_either A B: until the screen shows A or B.
wait_for_either() {
    i=0
    while [ "$i" -lt "$WAIT_TENTHS" ]; do
        capture
        if grep -qF -- "$1" "$screen_file" || grep -qF -- "$2" "$screen_file"; then
            return 0
        fi
        sleep 0.1
        i=$((i + 1))
    done
    fail "the screen never showed '$1' or '$2'"
}

shows() { capture; grep -qF -- "$1" "$screen_file"; }

# press_until TEXT KEY...: presses the keys (a tenth of a second apart,
# 60 times at most) until the screen shows TEXT, then waits for it.
press_until() {
    text=$1
    shift
    pu=0
    while [ "$pu" -lt 60 ] && ! shows "$text"; do
        keys "$@"
        pu=$((pu + 1))
        sleep 0.1
    done
    wait_for "$text"
}

# The message line (the screen's last line but one).
message_line() { tail -n 2 "$screen_file" | head -n 1; }

# key_then_message_changes KEY: presses KEY once and waits until the
# message line is another, so no key is pressed twice for one screen.
key_then_message_changes() {
    capture
    was=$(message_line)
    keys "$1"
    i2=0
    while [ "$i2" -lt "$WAIT_TENTHS" ]; do
        capture
        [ "$(message_line)" != "$was" ] && return 0
        sleep 0.1
        i2=$((i2 + 1))
    done
    fail "the message '$was' stayed after $1"
}

# wait_until_changed PATTERN OLD: until the first match of PATTERN (a
# regular expression) on the screen is other than OLD.
wait_until_changed() {
    i=0
    while [ "$i" -lt "$WAIT_TENTHS" ]; do
        capture
        now=$(grep -o -- "$1" "$screen_file" | head -1)
        [ -n "$now" ] && [ "$now" != "$2" ] && return 0
        sleep 0.1
        i=$((i + 1))
    done
    fail "'$1' stayed '$2'"
}
keys() { tm send-keys -t "$session" "$@"; }

# Places the drawn tile on the first legal square with follower choice $1
# (0: none) and confirms.
place_and_confirm() {
    wait_for_either "fits here" "fits nowhere!"
    if shows "fits nowhere!"; then
        keys Enter
        return
    fi
    keys Tab
    keys Enter
    wait_for_either "Confirm?" "Follower:"
    if shows "Follower:"; then
        keys "$1"
        wait_for "Confirm?"
    fi
    keys Enter
}

# Quits the game (answering the unsaved-game question) and checks that it
# ended cleanly: exit status 0 (a sanitizer report would change it).
finish() {
    keys q
    wait_for_either "Quit anyway?" "EXIT="
    if shows "Quit anyway?"; then keys y; fi
    wait_for "EXIT=0"
}

t_start_place_confirm() {
    start 100 30 --seed 3 --players human,greedy --no-color
    wait_for "Place your tile"
    shows "turn 1 | Red (you) plays tile" || fail "no header"
    shows "Tiles left: 70" || fail "no tile count"
    keys Tab
    wait_for "fits here"
    # Tile V of seed 3 fits each legal square in two rotations: r steps
    # through those two only, so it shows two rotations, both fitting.
    seen=""
    for _ in 1 2 3 4; do
        before=$(grep -o 'turned [0-3]' "$screen_file" | head -1)
        keys r
        wait_until_changed 'turned [0-3]' "$before"
        grep -qF "does not fit here" "$screen_file" && fail "r turned to a rotation that does not fit"
        seen="$seen $(grep -o 'turned [0-3]' "$screen_file" | head -1 | cut -c8)"
    done
    distinct=$(echo "$seen" | tr ' ' '\n' | sort -u | grep -c .)
    [ "$distinct" -eq 2 ] || fail "rotations seen:$seen (want two distinct)"
    keys Up Up Up Up
    wait_for "does not fit here"
    # r where no rotation fits turns the tile (to look at) and says that
    # none fits here.
    turned=$(grep -o 'turned [0-3]' "$screen_file" | head -1)
    key_then_message_changes r
    shows "No rotation fits here (Tab goes to a square where one does)." ||
        fail "r where no rotation fits does not say so"
    if shows "$turned"; then fail "r did not turn the tile where no rotation fits"; fi
    keys Tab
    wait_for "fits here"
    keys Enter
    wait_for "Follower spots:"
    shows "0 no follower" || fail "no 'no follower' choice"
    # A number the tile has no spot for says so and changes nothing.
    key_then_message_changes 9
    shows "This tile has no spot 9: 1 to " || fail "9 (no such spot) does not say so"
    shows "Follower spots:" || fail "9 (no such spot) left the follower step"
    keys 1
    wait_for "Confirm?"
    keys Escape
    wait_for "Follower spots:"
    keys 1
    wait_for "Confirm?"
    keys Enter
    wait_for "turn 3 |"
    shows "R Red       0  6/7" || fail "the follower did not leave the supply"
    echo "rotations seen:$seen"
    finish
}

# Seed 9 deals U, a straight road, which looks the same turned twice: on
# each square it fits in two rotations that are one move, so r offers one
# rotation, the lowest, and says so.
t_symmetric_rotation() {
    start 100 30 --seed 9 --players human,greedy --no-color
    wait_for "Place your tile"
    shows "plays tile U" || fail "seed 9 no longer deals U"
    for _ in 1 2 3; do
        # The last round's message says "fits here" too: wait for the
        # cursor to move first, or r may be pressed before Tab is seen.
        capture
        cursor=$(grep -o 'cursor -*[0-9]*,-*[0-9]*' "$screen_file" | head -1)
        keys Tab
        wait_until_changed 'cursor -*[0-9]*,-*[0-9]*' "$cursor"
        wait_for "fits here"
        shows "turned 1" || fail "U not at its lowest rotation"
        key_then_message_changes r
        shows "Only this rotation fits here" || fail "r offered another rotation"
        shows "turned 1" || fail "r turned U to a rotation that looks the same"
        keys R
        wait_for "Only this rotation fits here"
        shows "turned 1" || fail "R turned U to a rotation that looks the same"
    done
    finish
}

t_inspect() {
    start 100 30 --seed 3 --players human,greedy --no-color
    wait_for "Place your tile"
    keys i
    wait_for "Inspector: "
    wait_for "Followers: "
    shows "If the game ended now:" || fail "no end value"
    # No follower stands anywhere yet: nobody would score it.
    grep -q "If the game ended now: nobody\|If the game ended now: nothing" "$screen_file" ||
        fail "the end value does not say nobody would score it"
    first=$(grep -o 'Inspector: [a-z]*' "$screen_file")
    keys Tab
    wait_until_changed 'Inspector: [a-z]*' "$first"
    keys Escape
    wait_for "Place your tile"
    finish
}

# The drawn tile's letter from the header: "plays tile V".
# The drawn tile's id in the header: one letter, or two (The River's "RD").
drawn_tile() { capture; grep -o 'plays tile [A-Z][A-Z]* ' "$screen_file" | head -1 | cut -c12- | tr -d ' '; }
# The header's turn and tile: "turn 5 | Red (you) plays tile V".
turn_and_tile() { capture; grep -o 'turn [0-9]* | .* plays tile [A-Z][A-Z]* ' "$screen_file" | head -1; }

# Plays one human move and waits for the human's next turn.
next_human_turn() {
    before=$(turn_and_tile)
    place_and_confirm 0
    i=0
    while [ "$i" -lt "$WAIT_TENTHS" ]; do
        now=$(turn_and_tile)
        if [ -n "$now" ] && [ "$now" != "$before" ] && shows "Red (you) plays"; then
            return 0
        fi
        sleep 0.1
        i=$((i + 1))
    done
    fail "the human's next turn did not come"
}

# A save lands in the saves folder (made as needed), the command printed
# on quitting resumes it, and the loaded game goes on exactly as saved:
# the same drawn tile, and the same tiles after it.
# Presses arrows until the header's cursor is at ($1, $2).
# shellcheck disable=SC2317 # called by the tests below
cursor_to() {
    capture
    x=$(grep -o 'cursor -*[0-9]*,' "$screen_file" | grep -o -- '-*[0-9]*')
    y=$(grep -o 'cursor -*[0-9]*,-*[0-9]*' "$screen_file" | grep -o -- '-*[0-9]*$')
    while [ "$x" -lt "$1" ]; do keys Right; x=$((x + 1)); done
    while [ "$x" -gt "$1" ]; do keys Left; x=$((x - 1)); done
    while [ "$y" -lt "$2" ]; do keys Down; y=$((y + 1)); done
    while [ "$y" -gt "$2" ]; do keys Up; y=$((y - 1)); done
    wait_for "cursor $1,$2"
}

# Seed 18 deals B, a cloister: the inspector says how far round it is
# filled, not "tiles" and "pennants".
t_inspect_cloister() {
    start 100 30 --seed 18 --players human,greedy --no-color
    wait_for "Place your tile"
    keys Enter
    wait_for "1 monk in the cloister"
    keys 1
    wait_for "Confirm?"
    keys Enter
    wait_for "turn 3 |"
    # The monk stands beside the cloister, which keeps its symbol (he took
    # its cell), in full and in the overview.
    shows "⌂R" || fail "the monk is not beside the cloister's symbol"
    keys f
    wait_for "Overview: f again"
    shows "⌂R" || fail "the overview does not show the monk beside the cloister"
    keys f
    wait_for "Place your tile"
    keys i
    wait_for "Inspector"
    cursor_to 0 1
    # Its own counter: wait_until_changed counts its polls in i.
    tabs=0
    while [ "$tabs" -lt 6 ] && ! shows "Inspector: cloister"; do
        was=$(grep -o 'Inspector: [a-z]*' "$screen_file" | head -1)
        keys Tab
        wait_until_changed 'Inspector: [a-z]*' "$was"
        tabs=$((tabs + 1))
    done
    wait_for "Inspector: cloister"
    shows "Squares around it filled: " || fail "the cloister's neighbours are not counted in words"
    shows "pennant" && fail "pennants named for a cloister"
    shows "Followers: Red 1" || fail "the monk is not listed"
    finish
}

t_save_load() {
    start 100 30 --seed 5 --players human,greedy --no-color
    place_and_confirm 0
    wait_for "turn 3 |"
    tile=$(drawn_tile)
    [ -n "$tile" ] || fail "no drawn tile in the header"
    keys s
    wait_for "Save as: carcassonne-5.rec"
    shows "Enter:save in ~/data/carcassonne/saves" || fail "the prompt does not name the folder"
    keys Enter
    wait_for "the log says"
    shows "To resume: " || fail "the log does not say how to resume"
    saved="$XDG_DATA_HOME/carcassonne/saves/carcassonne-5.rec"
    [ -f "$saved" ] || fail "no file in the saves folder"
    next_human_turn
    next_human_turn
    later=$(turn_and_tile)
    keys q
    wait_for "Quit anyway?"
    shows "Enter: OK" && fail "the quit prompt offers Enter"
    shows "y:quit" || fail "the quit prompt's keys are not shown"
    keys Enter
    wait_for "Place your tile"
    keys q
    wait_for "Quit anyway?"
    keys y
    wait_for "EXIT=0"
    tm capture-pane -J -p -t "$session" >"$screen_file"
    cmd=$(sed -n 's/^To resume it: //p' "$screen_file")
    [ -n "$cmd" ] || fail "no command to resume the game"
    case "$cmd" in /*" play --load $saved") ;; *) fail "the command is '$cmd'" ;; esac
    grep -q '^players 2' "$saved" || fail "no players line"
    grep -q '^seat-2 greedy' "$saved" || fail "the seats are not saved"
    grep -q '^seed 5$' "$saved" || fail "the seed is not saved"
    test "$(grep -c '^[A-X] ' "$saved")" -eq 2 || fail "not two moves in the record"
    "$bin" replay "$saved" >/dev/null || fail "the saved record does not replay"
    for n in 1 2 3; do
        session=load$n # more games on the same tmux server
        if [ "$n" = 1 ]; then
            tm new-session -d -s "$session" -x 100 -y 30 "$cmd --no-color; echo EXIT=\$?; sleep 60"
        else # a bare name is found in the saves folder
            start 100 30 --load carcassonne-5.rec --no-color
        fi
        wait_for "Resumed "
        shows "turn 3 | Red (you) plays tile $tile" || fail "load $n: not tile $tile at turn 3"
        shows "greedy" || fail "the loaded seats are not the saved ones"
        shows "Turn 2: Blue put" || fail "the log of the loaded game lost its moves"
        keys s # the save prompt offers the file's name in the saves folder
        wait_for "Save as: carcassonne-5.rec"
        keys Escape
        wait_for "r:rotate Tab:next"
        next_human_turn
        next_human_turn
        [ "$(turn_and_tile)" = "$later" ] || fail "load $n: '$(turn_and_tile)', not '$later'"
        finish
    done
}

# The save prompt edits its line: a typed name replaces the selected
# default (it was appended: "carcassonne-5.recfinal1"), gets ".rec", and
# Ctrl-U, Backspace and the arrows edit it.
t_save_name() {
    start 100 30 --seed 5 --players human,greedy --no-color
    wait_for "Place your tile"
    keys s
    wait_for "Save as: carcassonne-5.rec"
    shows "Ctrl-U:clear" || fail "the prompt does not say Ctrl-U clears"
    keys -l final1
    wait_for "Save as: final1.rec"
    keys Enter
    wait_for "the log says"
    dir="$XDG_DATA_HOME/carcassonne/saves"
    [ -f "$dir/final1.rec" ] || fail "no final1.rec: $(ls "$dir")"
    keys s
    wait_for "Save as: final1.rec"
    keys C-u
    wait_for_re 'Save as: *$' "Ctrl-U left text in the prompt"
    keys -l "second"
    keys BSpace BSpace Left Left
    keys -l "X"
    wait_for "Save as: seXco.rec"
    keys End
    keys -l ".rec" # typed: not added again
    keys Enter
    wait_for "the log says"
    [ -f "$dir/seXco.rec" ] || fail "no seXco.rec: $(ls "$dir")"
    [ "$(find "$dir" -mindepth 1 -maxdepth 1 | wc -l)" -eq 2 ] || fail "other files saved: $(ls "$dir")"
    "$bin" replay "$dir/seXco.rec" >/dev/null || fail "the saved record does not replay"
    keys q
    wait_for "EXIT=0"
}

# At 80 columns the log's resume command breaks only at spaces, after a
# '/' and after the '-' of "carcassonne-SEED.rec" (a clock's seed makes
# the name longer than the panel: it broke as "...0626.r" and "ec").
t_resume_80() {
    start 80 40 --seed 40529107430626 --players human,greedy --no-color
    wait_for "Place your tile"
    keys s
    wait_for "Save as: carcassonne-40529107430626.rec"
    keys Enter
    wait_for "To resume:"
    log=$(grep '│' "$screen_file" | sed -n '/│To resume: /,$p' | sed 's/.*│ *//')
    echo "$log" | grep -qx '40529107430626.rec' || fail "the saved game's name is broken mid-word"
    echo "$log" | grep -qx 'carcassonne-' || fail "the saved game's name does not break after its '-'"
    finish
}

# Keys typed before the game starts (while scripts/play.sh builds it) are
# dropped: a 'q' ended the game unseen. The game starts half a second after
# the keys; it reads them in order, so the help shown after '?' proves the
# 'q' before it was never read.
t_typeahead() {
    tm -f /dev/null new-session -d -s "$session" -x 100 -y 30 \
        "sleep 0.5; \"$bin\" play --seed 5 --players human,greedy --no-color; echo EXIT=\$?; sleep 60"
    keys q
    wait_for "Place your tile"
    keys '?'
    wait_for "keys and rules"
    shows "EXIT=" && fail "the game ended"
    shows "Quit anyway?" && fail "the game read the early q"
    keys Escape
    wait_for "Place your tile"
    keys q
    wait_for "EXIT=0"
}

# The help's second page (Space) is a legend of the board's symbols.
t_help_legend() {
    start 80 24 --seed 5 --players human,greedy --no-color
    wait_for "Place your tile"
    keys '?'
    wait_for "Space: the board's symbols"
    keys Space
    wait_for "THE BOARD'S SYMBOLS"
    for text in "field (farm)" "a city's wall" "road ends, crossroads" "cloister" \
        "a farmer" "the drawn tile fits there" "a dead spot" "follower spots" \
        "a player's last move" "the feature inspected"; do
        shows "$text" || fail "the legend does not explain '$text'"
    done
    # Only what this game plays: no river, inn, cathedral, large follower or
    # goods (the river shared the cloister's line).
    for text in "river (The River)" "≈" "an inn beside a road" "a cathedral" "a large follower" \
        "wine"; do
        shows "$text" && fail "the base game's legend explains '$text'"
    done
    shows "Overview (f)" || fail "the legend does not explain the overview"
    keys x
    wait_for "Place your tile"
    shows "THE BOARD'S SYMBOLS" && fail "a key did not close the legend"
    keys q
    wait_for "EXIT=0"
}

# Counts the underlined cells' runs on the screen (a highlighted feature
# under --no-color is bold and underlined).
underlined() {
    tm capture-pane -e -p -t "$session" | grep -c "$(printf '\033')\\[[0-9;]*4[;m]" || true
}

t_final_scoring() {
    "$bin" selfplay --seed 7 --players 2 --record full.rec >/dev/null
    moves=$(grep -c '^[A-X] \|^discard' full.rec)
    keep=$(( $(wc -l <full.rec) - 4 ))
    head -n "$keep" full.rec >near.rec
    start 100 30 --load near.rec --players human,greedy --no-color
    wait_for "Resumed near.rec"
    i=0 last_confirm=""
    while [ "$i" -lt 200 ]; do
        capture
        if grep -qF "Final scoring" "$screen_file"; then
            break
        elif grep -qF "fits nowhere: it is discarded" "$screen_file"; then
            key_then_message_changes Enter
        elif grep -qF "Place your tile" "$screen_file"; then
            key_then_message_changes Enter # the cursor starts where the tile fits
        elif grep -qF "Follower:" "$screen_file"; then
            key_then_message_changes 0
        elif grep -qF "Confirm?" "$screen_file"; then
            if grep -qF "the final scoring" "$screen_file"; then
                last_confirm=$(grep -o "Confirm? This move scores [0-9]* for you[^.]*" "$screen_file")
            fi
            key_then_message_changes Enter
        else
            sleep 0.1
        fi
        i=$((i + 1))
    done
    wait_for "Final scoring" 1
    echo "the last confirm: $last_confirm"
    case "$last_confirm" in
    *"for you, the final scoring "*" more"*) ;;
    *) fail "the last tile's confirm does not keep the final scoring apart: '$last_confirm'" ;;
    esac
    shows "cloisters" || fail "no breakdown"
    shows "total" || fail "no total"
    shows "clst" && fail "jargon in the final scoring"
    shows "Winner" || fail "no winner"
    shows "game over after" || fail "no game-over header"
    [ "$(underlined)" -eq 0 ] || fail "a feature is highlighted before stepping"
    n=$(grep -o "steps through the [0-9]*" "$screen_file" | grep -o "[0-9]*$" || true)
    [ -n "$n" ] || fail "no count of the features scored at the end"
    keys n
    # The message line is drawn after the panel: wait for it, not for the
    # panel, or a capture between the two sees the old message.
    wait_for_re "^Final scoring 1 of $n: [A-Z][a-z]* scores* [0-9]* " \
        "the message line does not give the feature's points"
    [ "$(underlined)" -gt 0 ] || fail "the first scored feature is not highlighted"
    grep -q "1 of [0-9]*: [A-Z][a-z]* score" "$screen_file" || fail "no points for the feature"
    keys p
    wait_for "steps through the"
    keys p
    wait_for "$n of $n:"
    # The log keeps the final scoring, and scrolls back to the start.
    shows "final scoring" || shows "for a farm" || fail "the log lost the final scoring"
    press_until "Turn 1: Red put" '['
    wait_for "Log (the start; ] newer)"
    echo "the record had $moves moves"
    finish
}

# The log's last rows as the panel shows them: the panel's rows after its
# title line, the bottom three. The log is drawn from the panel's bottom
# up, so these keep their place when the panel above it grows or shrinks.
log_rows() {
    grep '│' "$screen_file" | sed -n '/│Log /,$p' | sed -e '1d' -e 's/.*│//' | tail -n 3
}

# Captures until the log's rows hold still (a frame may be on its way to
# the screen); leaves them in $rows.
steady_log_rows() {
    capture
    rows=$(log_rows)
    i=0
    while [ "$i" -lt 20 ]; do
        sleep 0.3
        capture
        [ "$(log_rows)" = "$rows" ] && return 0
        rows=$(log_rows)
        i=$((i + 1))
    done
    fail "the log's rows never held still"
}

# A log scrolled back stays on its lines while moves add new ones, and
# scrolls forward to the newest again.
t_log_scroll() {
    "$bin" selfplay --seed 7 --players 2 --record full.rec >/dev/null
    head -n 40 full.rec >mid.rec
    start 80 24 --load mid.rec --players human,greedy --no-color
    wait_for "([ older)"
    # Blue moves first: scrolled back only once it has (under ASan Blue's
    # "thinking" line was still on the log when its rows were taken).
    wait_for "Red (you) plays"
    keys '['
    wait_for "Log ([ older, ] newer)"
    # The rows once they hold still: the title can be on the screen before
    # the rows under it are.
    steady_log_rows
    rows_before=$rows
    [ -n "$rows_before" ] || fail "no log rows"
    next_human_turn
    steady_log_rows
    [ "$rows" = "$rows_before" ] || fail "the log moved while scrolled back: [$rows_before], now [$rows]"
    press_until "([ older)" ']'
    finish
}

# A full log keeps its last 200 lines, so each new line drops its oldest:
# scrolled back, it still stays on its lines while a turn adds new ones.
t_log_full() {
    "$bin" selfplay --seed 1 --players 2 --expansions river,inns-cathedrals,traders-builders \
        --record full.rec >/dev/null
    head -n 110 full.rec >mid.rec
    start 80 30 --load mid.rec --players human,greedy --no-color --no-tile-info
    wait_for "Red (you) plays"
    # Each save logs two lines: 45 of them fill the log.
    n=0
    while [ "$n" -lt 45 ]; do
        keys s
        wait_for "Save as:"
        keys Enter
        wait_for "the log says"
        n=$((n + 1))
    done
    press_until "Log (the start; ] newer)" '['
    shows "Turn 1: Red put" && fail "the log is not full: it still has the first move"
    # Two pages on: rows of moves, with the lines the turn drops above them.
    keys ']' ']'
    wait_for "Log ([ older, ] newer)"
    steady_log_rows
    rows_before=$rows
    echo "$rows_before" | grep -q "Turn [0-9]*:" || fail "no moves in the log's rows: [$rows_before]"
    next_human_turn
    steady_log_rows
    [ "$rows" = "$rows_before" ] || fail "the full log moved while scrolled back: [$rows_before], now [$rows]"
    shows "Log ([ older, ] newer)" || fail "the log is no longer scrolled back"
    finish
}

# Undo cuts the lines of the turns it takes back off the log's end:
# scrolled back, the log stays on its lines; when the rows it showed were
# cut, it shows the newest.
t_log_undo() {
    "$bin" selfplay --seed 7 --players 2 --record full.rec >/dev/null
    head -n 40 full.rec >mid.rec
    start 80 24 --load mid.rec --players human,greedy --no-color
    wait_for "Red (you) plays"
    next_human_turn
    # Three pages (a row each at 80x24) on from the start: older rows
    # than the turn's that undo cuts.
    press_until "Log (the start; ] newer)" '[' '[' '[' '[' '[' '[' '[' '[' '[' '['
    keys ']' ']' ']'
    wait_for "Log ([ older, ] newer)"
    steady_log_rows
    rows_before=$rows
    [ -n "$rows_before" ] || fail "no log rows"
    keys u
    wait_for "Your last move is undone."
    steady_log_rows
    [ "$rows" = "$rows_before" ] || fail "undo moved the log scrolled back: [$rows_before], now [$rows]"
    shows "Log ([ older, ] newer)" || fail "undo took the log off its place"
    # Back a page from the newest: on the rows of the turn undo cuts.
    press_until "Log ([ older)" ']' ']' ']' ']' ']' ']' ']' ']' ']' ']'
    next_human_turn
    keys '['
    wait_for "Log ([ older, ] newer)"
    keys u
    wait_for "Your last move is undone."
    steady_log_rows
    shows "Log ([ older)" || fail "undo left the log scrolled back though it cut the rows shown"
    finish
}

# start_all_three_midgame COLS LINES: a game with the three expansions
# loaded 60 lines into its record (seed 1), the human to move, the panel
# drawn with the tile odds.
start_all_three_midgame() {
    "$bin" selfplay --seed 1 --players 2 --expansions river,inns-cathedrals,traders-builders \
        --record full.rec >/dev/null
    head -n 60 full.rec >mid.rec
    start "$1" "$2" --load mid.rec --players human,greedy --no-color
    wait_for "Red (you) plays"
    wait_for "Tiles left:"
}

# At 80x24 with tile info the expansions' odds fill the panel: the log
# has no room, and [ says so instead of scrolling it unseen.
t_log_no_room() {
    start_all_three_midgame 80 24
    shows "│Log" && fail "the log has room: no test of a panel without it"
    keys '['
    wait_for "no room for the log"
    # With room the log is on its newest rows: the key left it there.
    tm resize-window -t "$session" -x 80 -y 44
    wait_for_either "Log ([ older)" "Log ([ older, ] newer)"
    shows "Log ([ older)" || fail "[ scrolled the log while the panel had no room for it"
    finish
}

# The log's rows under its title (the whole window).
log_window() { grep '│' "$screen_file" | sed -n '/│Log /,$p' | sed -e '1d' -e 's/.*│//'; }

# The newest move in the log's window: "Turn 14".
newest_turn() { log_window | grep -o '^Turn [0-9]*' | tail -n 1; }

# resize COLS LINES: the terminal's new size, once the game has drawn its
# panel (and the log's title) at the new width.
resize() {
    tm resize-window -t "$session" -x "$1" -y "$2"
    at=$(($1 - ($1 >= 110 ? 36 : 30)))
    wait_for_re "^.\{$at\}│Log " "the log's title never came to column $at at $1x$2"
}

# The panel is 36 columns wide from 110 columns on, 30 below, so a resize
# across 110 wraps the log's lines to other rows: scrolled back, the log
# stays at its start, and elsewhere keeps the line at its window's bottom.
t_log_resize() {
    "$bin" selfplay --seed 7 --players 2 --record full.rec >/dev/null
    head -n 40 full.rec >mid.rec
    start 120 30 --load mid.rec --players human,greedy --no-color
    wait_for "Red (you) plays"
    press_until "Log (the start; ] newer)" '['
    resize 100 30
    shows "Log (the start; ] newer)" || fail "the log left its start when its lines wrapped narrower"
    keys ']' ']'
    wait_for "Log ([ older, ] newer)"
    steady_log_rows
    bottom=$(newest_turn)
    [ -n "$bottom" ] || fail "no move in the log's window"
    resize 120 30
    steady_log_rows
    shows "Log ([ older, ] newer)" || fail "the resize took the log off its place"
    [ "$(newest_turn)" = "$bottom" ] ||
        fail "the log's window ended at $bottom before the resize, now at $(newest_turn)"
    finish
}

# At 80x39 the odds leave the log two rows: a gap and its title, none for
# a line. The panel shows no bare title, and [ says there is no room; a
# row more shows the title and the newest line, and [ scrolls it.
t_log_one_row() {
    start_all_three_midgame 80 39
    shows "│Log" && fail "a log at 80x39: a bare title, or room the test no longer leaves it"
    keys '['
    wait_for "no room for the log"
    resize 80 40
    [ "$(log_window | grep -c .)" = 1 ] || fail "not one log line at 80x40: [$(log_window)]"
    shows "Log ([ older)" || fail "[ scrolled the log while the panel showed none of it"
    keys '['
    wait_for "Log ([ older, ] newer)"
    finish
}

# The board: the screen's rows between the header and the message line,
# each cut at the panel's line (the last '│' on the row).
board_part() { sed -e '1d' -e '$d' "$screen_file" | sed -e '$d' -e 's/│[^│]*$//'; }

# Seed 14 deals E, a city cap: north of the start tile it fits one way
# only (r says so), and a knight there completes the city at once. The
# confirm screen shows the knight on the tile with what it scores before
# it goes home; the spots and the panel speak plainly.
t_confirm_follower() {
    start 100 30 --seed 14 --players human,greedy --no-color
    wait_for "Place your tile"
    shows "cursor 0,-1" || fail "the cursor does not start north of the start tile"
    keys r
    wait_for "Only this rotation fits here"
    keys R
    wait_for "Only this rotation fits here"
    keys Enter
    wait_for "Follower spots:"
    shows "1 knight on the city at the" || fail "the spot is not named in words"
    if grep -q "([NESW]\{1,3\})" "$screen_file"; then fail "a port name in the spots"; fi
    keys 1
    wait_for "Confirm?"
    shows "This move scores 4 for you now" || fail "not 4 points for the move"
    shows "Red scores 4 for a city" || fail "the scoring is not listed"
    shows "then Red's follower comes" || fail "the knight's return is not said"
    board_part | grep -q "R" || fail "the knight is not shown on the board before it goes home"
    keys Enter
    wait_for "R Red       4  7/7"
    # The panel can be on the screen before the board is redrawn: the
    # knight has WAIT_TENTHS polls to leave it.
    i=0
    while [ "$i" -lt "$WAIT_TENTHS" ] && board_part | grep -q "R"; do
        sleep 0.1
        capture
        i=$((i + 1))
    done
    board_part | grep -q "R" && fail "the knight stayed on the board"
    shows "(c)" && fail "jargon after the last move"
    shows "Last: Red put E at 0,-1" || shows "Last: Blue put" || fail "no last move line"
    # The completed city scored once: the inspector says the end adds nothing.
    wait_for "Place your tile"
    keys i
    wait_for "Inspector"
    cursor_to 0 -1
    wait_for "Inspector: city (complete)"
    wait_for "Complete: worth 4"
    shows "If the game ended now" && fail "an end value for a completed city"
    finish
}

# cursor_to X Y: arrows until the header says "cursor X,Y".
cursor_to() {
    n=0
    while [ "$n" -lt 40 ]; do
        capture
        at=$(grep -o 'cursor -*[0-9]*,-*[0-9]*' "$screen_file" | head -1 | cut -c8-)
        cx=${at%,*} cy=${at#*,}
        [ -n "$at" ] || fail "no cursor in the header"
        if [ "$cx" -lt "$1" ]; then keys Right
        elif [ "$cx" -gt "$1" ]; then keys Left
        elif [ "$cy" -lt "$2" ]; then keys Down
        elif [ "$cy" -gt "$2" ]; then keys Up
        else return 0
        fi
        wait_until_changed 'cursor -*[0-9]*,-*[0-9]*' "cursor $at"
        n=$((n + 1))
    done
    fail "the cursor did not reach $1,$2"
}

t_quit_asks() {
    start 100 30 --seed 9 --players human,random --no-color
    place_and_confirm 0
    wait_for "turn 3 |"
    keys q
    wait_for "Quit anyway?"
    keys n
    wait_for "Place your tile"
    if shows "EXIT="; then fail "quit without asking"; fi
    keys q
    wait_for "Quit anyway?"
    keys y
    wait_for "EXIT=0"
}

# The screen answers while the computer thinks, and quitting stops the
# search at once: the computer has 30 s, the quit must take under 3.
t_quit_while_thinking() {
    start 100 30 --seed 13 --players "human,mcts:ms=30000,threads=1" --no-color
    place_and_confirm 0
    wait_for "Blue is thinking..."
    keys '?'
    wait_for "keys and rules"
    keys x
    wait_for "Blue is thinking..."
    # Looking around: the inspector, its features, tiles left, the overview.
    keys i
    wait_for "Inspector: "
    keys Tab
    keys t
    wait_for "any key returns"
    keys x
    wait_for "Inspector: "
    keys Escape
    wait_for "i:inspect t:tiles"
    keys f
    wait_for "Overview: f again"
    shows "Blue is thinking..." || fail "the computer's move came before the looking was done"
    keys q
    wait_for "Quit anyway?"
    keys y
    wait_for "EXIT=0" 3
}

# Two humans at one keyboard: the game names whose turn it is.
# At 80 columns the messages are whole, with the longest name before them.
t_hot_seat() {
    start 80 24 --seed 17 --players human,human,human --no-color
    wait_for "Red: Place your tile"
    place_and_confirm 0
    wait_for "Blue: Place your tile"
    shows "Blue (human) plays" || fail "the header does not name Blue"
    # The key line names only keys that work here: no undo, and save.
    tail -n 1 "$screen_file" | grep -q "u:undo" && fail "the key line offers undo in a hot seat"
    tail -n 1 "$screen_file" | grep -q "s:save" || fail "the key line does not name s:save"
    keys u
    wait_for "Undo is for games against the computer."
    place_and_confirm 0
    wait_for "Yellow: Place your tile"
    grep -q "Enter places\.$" "$screen_file" || fail "the message is cut at 80 columns"
    keys Tab Enter
    wait_for_either "Yellow: Follower:" "Confirm?"
    if shows "Follower:"; then
        grep -q "Esc back\.$" "$screen_file" || fail "the follower message is cut at 80 columns"
    fi
    finish
}

t_undo() {
    start 100 30 --seed 11 --players human,greedy --no-color
    place_and_confirm 0
    wait_for "turn 3 |"
    keys u
    wait_for "Your last move is undone."
    shows "turn 1 |" || fail "undo did not go back to turn 1"
    finish
}

t_hint() {
    start 100 30 --seed 3 --players human,greedy --no-color
    wait_for "Place your tile"
    keys h
    wait_for "Best moves (your expected" 30
    grep -q '^.*│1 [-+][0-9.]* at -*[0-9]*,-*[0-9]* turned [0-3]' "$screen_file" ||
        fail "hint 1 does not say where and how it is turned"
    grep -q ' r[0-3] ' "$screen_file" && fail "jargon in the hints"
    # Away from the hints' squares, the cursor hides none of their numbers.
    # The cursor's square is waited for: "does not fit here" shows from the
    # first Up on.
    shows "cursor 1,0" || fail "seed 3 no longer starts the cursor at 1,0"
    keys Up Up Up Up Up Up
    wait_for "cursor 1,-6"
    wait_for "does not fit here"
    board_part | grep -q '1' || fail "hint 1 is not shown on the board"
    keys 1
    wait_for "Confirm?"
    finish
}

t_resize_80x24() {
    start 80 24 --seed 3 --players human,mcts:level=hard,ms=300 --no-color
    wait_for "Place your tile"
    shows "q:quit" || fail "keys cut off at 80 columns"
    shows "Tiles left: 70" || fail "no tile panel at 80x24"
    # A seat's label is never cut: the level when the spec is too long.
    shows "mcts hard" || fail "the computer's seat is not named at 80 columns"
    shows "mcts:leve" && fail "a seat label cut at 80 columns"
    keys '?'
    wait_for "keys and rules"
    shows "Letters: R B Y G K W" || fail "the help does not fit 80x24"
    for text in "The River" "Inns & Cathedrals" "Traders & Builders" "A hand of" "House rules" \
        "large follower" "builder" "pig"; do
        shows "$text" && fail "the base game's help tells '$text'"
    done
    keys x
    wait_for "Place your tile"
    tm resize-window -t "$session" -x 60 -y 20
    wait_for "needs a terminal of at least 80x24"
    # At 30x8 the message wraps at words, and keys do nothing blind.
    tm resize-window -t "$session" -x 30 -y 8
    wait_for "is 30x8."
    grep -q '^\.8)\.' "$screen_file" && fail "a stray wrapped line at 30x8"
    keys Tab Enter 1 Enter Enter
    tm resize-window -t "$session" -x 120 -y 40
    wait_for "Place your tile"
    shows "turn 1 |" || fail "keys pressed while too small were carried out"
    shows "Confirm?" && fail "keys pressed while too small were carried out"
    # The board is centred again: the cursor's square is mid-screen, so
    # the middle rows show the board.
    sed -n '16,26p' "$screen_file" | sed 's/│[^│]*$//' | grep -q '[^ ]' ||
        fail "the board is not in the middle of the screen after the resize"
    keys '?'
    wait_for "keys and rules"
    shows "farmer" || fail "the help does not explain farmers"
    shows "hjkl" && fail "the help names keys hjkl that do not move"
    shows "arrows move" || fail "the help does not say how to move"
    keys x
    wait_for "Place your tile"
    # j, k and l are not keys: after each, an arrow leads to the square
    # next to where the cursor was (were they keys, it would never show).
    x=$(grep -o 'cursor -*[0-9]*,' "$screen_file" | grep -o -- '-*[0-9]*')
    y=$(grep -o 'cursor -*[0-9]*,-*[0-9]*' "$screen_file" | grep -o -- '-*[0-9]*$')
    keys j Right
    wait_for "cursor $((x + 1)),$y"
    keys l Left
    wait_for "cursor $x,$y"
    keys k Down
    wait_for "cursor $x,$((y + 1))"
    finish
}

# At 120 columns the inspector's lines are whole (wrapped, not cut).
t_panel_120() {
    start 120 40 --seed 3 --players human,greedy --no-color
    wait_for "Place your tile"
    keys i
    wait_for "Inspector: "
    # Its own counter: wait_until_changed counts its polls in i, so a Tab
    # shown after 0.8 s ended this loop before the farm (seen with the game
    # slowed down after each key, as on a loaded machine).
    tabs=0
    while [ "$tabs" -lt 8 ] && ! shows "Inspector: farm"; do
        was=$(grep -o 'Inspector: [a-z]*' "$screen_file" | head -1)
        keys Tab
        wait_until_changed 'Inspector: [a-z]*' "$was"
        tabs=$((tabs + 1))
    done
    wait_for "Inspector: farm"
    shows "Worth now: 0" || fail "no worth line"
    shows "end)" || fail "the farm's worth line is cut"
    shows "the en" && ! shows "the end" && fail "the farm's worth line is cut"
    finish
}

t_no_tile_info() {
    start 100 30 --seed 3 --players human,greedy --no-tile-info --no-color
    wait_for "Tiles left: 70"
    if shows "dead spots" || shows "V 8  11%"; then fail "tile odds shown with --no-tile-info"; fi
    keys t
    wait_for "any key returns"
    if shows "%"; then fail "tiles screen shows chances with --no-tile-info"; fi
    keys x
    wait_for "Place your tile"
    finish
}

t_bad_arguments() {
    status=0
    "$bin" play --players human 2>err.txt || status=$?
    [ "$status" -eq 2 ] || fail "one seat: exit $status, not 2"
    grep -q "at least 2" err.txt || fail "no clear message"
    status=0
    "$bin" play --load does/not/exist.rec 2>err.txt || status=$?
    [ "$status" -eq 2 ] || fail "unreadable file: exit $status"
    printf 'players 2\nZ 0 0 0\n' >bad.rec
    status=0
    "$bin" play --load bad.rec 2>err.txt || status=$?
    [ "$status" -eq 1 ] || fail "invalid record: exit $status"
    grep -q "line 2" err.txt || fail "no line number"
    "$bin" play --help | grep -q '^usage: carcassonne play' || fail "no usage"
    "$bin" play --help | grep -q -- '--expansions LIST' || fail "the usage lacks --expansions"
    status=0
    "$bin" play --rules river-keep-start 2>err.txt || status=$?
    [ "$status" -eq 2 ] || fail "river-keep-start alone: exit $status, not 2"
    grep -q "needs the river" err.txt || fail "river-keep-start alone: no clear message"
    status=0
    "$bin" play --expansions atlantis 2>err.txt || status=$?
    [ "$status" -eq 2 ] || fail "an unknown expansion: exit $status, not 2"
    grep -q "atlantis" err.txt || fail "an unknown expansion is not named"
    status=0
    "$bin" play --expansions river,river 2>err.txt || status=$?
    [ "$status" -eq 2 ] || fail "river twice: exit $status, not 2"
}

# The River (river.md): the game starts from the spring at 0,0, its river
# flowing east, so the first river tile has one square, 1,0; the panel
# lists the river pile, the lake last at 0%. Then a save holds the
# `expansions river` line and two-letter tiles, and loads again.
# A bounded 3x3 table with the edge rule and eight seats (issue 26): the
# squares beyond the edge are shaded, Tab visits only squares on the table,
# the panel lists Purple and Pink.
t_table_edge() {
    start 100 34 --rules table=3x3,table-edge-completes --seed 3 \
        --players human,greedy,greedy,greedy,greedy,greedy,greedy,greedy --no-color
    wait_for "Place your tile"
    grep -q "░░░░░" "$screen_file" || fail "no shaded squares beyond the table's edge"
    shows "P Purple" || fail "no Purple in the panel"
    shows "I Pink" || fail "no Pink in the panel"
    seen=""
    for _ in 1 2 3 4 5 6; do
        keys Tab
        wait_for_either "fits here" "fits nowhere!"
        shows "fits nowhere!" && break
        at=$(grep -o 'cursor -*[0-9]*,-*[0-9]*' "$screen_file" | head -1 | cut -c8-)
        x=${at%,*} y=${at#*,}
        if [ "${x#-}" -gt 1 ] || [ "${y#-}" -gt 1 ]; then fail "Tab offered $at, beyond the 3x3 table"; fi
        seen="$seen $at"
    done
    echo "squares offered:$seen"
    finish
}

t_river() {
    start 100 32 --expansions river --seed 5 --players human,greedy --no-color
    wait_for "Place your tile"
    tile=$(drawn_tile)
    case "$tile" in R[B-K]) ;; *) fail "the first tile is '$tile', not a river tile" ;; esac
    shows "Tiles left: 81" || fail "not 81 tiles left (83 with the spring and the drawn tile)"
    shows "River pile: 10, the lake last" || fail "no river pile in the panel"
    grep -q "RL 1   0%" "$screen_file" || fail "the lake is not listed at 0%"
    grep -q "≈≈≈" "$screen_file" || fail "no water on the board (the spring)"
    shows "New game with The River" || fail "the log does not name The River"
    keys Tab
    wait_for "fits here"
    shows "cursor 1,0" || fail "the river's first square is not 1,0"
    keys Tab # the only legal square: Tab stays there
    wait_for "cursor 1,0"
    keys Enter
    wait_for_either "Confirm?" "Follower:"
    if shows "Follower:"; then
        shows "on the river" && fail "a follower spot on the river"
        keys 0
        wait_for "Confirm?"
    fi
    keys Enter
    wait_for "Turn 1: Red put $tile at 1,0"
    wait_for_re 'turn 3 | Red (you) plays tile R[B-L] ' "no river tile at turn 3"
    shows "River pile: 8, the lake last" || fail "not 8 river tiles left at turn 3"
    tile3=$(drawn_tile)
    keys s
    wait_for "Save as: carcassonne-5.rec"
    keys Enter
    wait_for "the log says"
    saved="$XDG_DATA_HOME/carcassonne/saves/carcassonne-5.rec"
    [ -f "$saved" ] || fail "no file in the saves folder"
    grep -q '^expansions river$' "$saved" || fail "no expansions line in the save"
    grep -q "^$tile 1 0 " "$saved" || fail "the first move is not '$tile 1 0 ...'"
    test "$(grep -c '^R[B-L] ' "$saved")" -eq 2 || fail "not two river moves in the save"
    "$bin" replay "$saved" >/dev/null || fail "the saved record does not replay"
    finish
    session=load
    start 100 32 --load carcassonne-5.rec --no-color
    wait_for "Resumed "
    shows "turn 3 | Red (you) plays tile $tile3 " || fail "the loaded game is not at turn 3 with $tile3"
    shows "River pile: 8, the lake last" || fail "the loaded game lost its river pile"
    shows "Turn 1: Red put $tile at 1,0" || fail "the loaded log lost the first move"
    # A hint in the river phase: a legal move of the river tile, taken.
    keys h
    wait_for "Best moves (your expected" 30
    grep -q '^.*│1 [-+][0-9.]* at -*[0-9]*,-*[0-9]* turned [0-3]' "$screen_file" ||
        fail "no river hint with its square and turn"
    keys 1
    wait_for "Confirm?"
    keys Enter
    wait_for "Turn 3: Red put $tile3 at"
    wait_for_re 'turn 5 | Red (you) plays tile R' "no river tile at turn 5 after the hint"
    next_human_turn
    shows "turn 7 | Red (you) plays tile R" || fail "no river tile at turn 7 after the load"
    finish
}

# The river pile runs out with the lake, eleventh, and the main pile
# follows: the panel lists its 24 kinds (river.md: the lake last).
t_river_ends() {
    start 100 32 --expansions river --seed 9 --players human,human --no-color
    for turn in 1 2 3 4 5 6 7 8 9 10; do
        wait_for "turn $turn |"
        case "$(drawn_tile)" in R[B-K]) ;; *) fail "turn $turn: tile '$(drawn_tile)' is no river tile before the lake" ;; esac
        place_and_confirm 0
    done
    wait_for "turn 11 |"
    [ "$(drawn_tile)" = RL ] || fail "the eleventh tile is '$(drawn_tile)', not the lake RL"
    shows "River pile" && fail "the lake is drawn: the next tile comes from the main pile"
    grep -q "│A [0-9 ]" "$screen_file" || fail "the panel does not list the main pile"
    grep -q "│R[B-L] [0-9 ]" "$screen_file" && fail "the panel still lists river tiles"
    place_and_confirm 0
    wait_for "turn 12 |"
    case "$(drawn_tile)" in [A-X]) ;; *) fail "turn 12: '$(drawn_tile)' is not a base tile" ;; esac
    finish
}

# Inns & Cathedrals: 89 tiles; in the follower step l switches to the
# large follower (panel, message and confirm line say so), which then
# stands on the board as its letter twice, leaves the supply line at 0,
# and is saved as `large`; the second page of the help explains the marks.
t_inns() {
    start 100 32 --expansions inns-cathedrals --seed 4 --players human,human --no-color
    wait_for "Place your tile"
    shows "Tiles left: 88" || fail "not 88 tiles left (90 with the start and the drawn tile)"
    shows "large follower: R 1 B 1" || fail "no large follower in the supply"
    keys Tab
    wait_for "fits here"
    keys Enter
    wait_for "Follower spots:"
    shows "l:large/follower" || fail "the keys do not offer the large follower"
    shows "l: the large follower instead" || fail "the panel does not offer the large follower"
    keys l
    wait_for "Large follower spots:"
    shows "Large follower (counts 2 in a majority)" || fail "the message does not name the large follower"
    shows "1 large " || fail "the spots do not say large"
    keys 1
    wait_for "Confirm the large follower?"
    board_part | grep -q "RR\|rr" || fail "the large follower is not drawn as two letters"
    keys Enter
    wait_for "large follower: R 0 B 1"
    board_part | grep -q "RR\|rr" || fail "the large follower left the board"
    # Blue places; then Red has no large follower: l says so.
    place_and_confirm 0
    wait_for "turn 3 |"
    keys Tab
    wait_for "fits here"
    keys Enter
    wait_for_either "Confirm?" "Follower spots:"
    if shows "Follower spots:"; then
        shows "l: the large follower instead" && fail "the large follower offered twice"
        key_then_message_changes l
        shows "Your large follower is on the board." || fail "l did not say the large one is out"
        keys 0
        wait_for "Confirm?"
    fi
    keys Enter
    wait_for "turn 4 |"
    keys s
    wait_for "Save as: carcassonne-4.rec"
    keys Enter
    wait_for "the log says"
    saved="$XDG_DATA_HOME/carcassonne/saves/carcassonne-4.rec"
    grep -q '^expansions inns-cathedrals$' "$saved" || fail "no expansions line in the save"
    test "$(grep -c ' large$' "$saved")" -eq 1 || fail "the save has not one large follower"
    "$bin" replay "$saved" >/dev/null || fail "the saved record does not replay"
    keys '?'
    wait_for "CARCASSONNE - keys and rules"
    shows "a road with an inn" || fail "the help does not tell the inn's scoring"
    shows "a city with a cathedral" || fail "the help does not tell the cathedral's scoring"
    shows "l in the follower step" || fail "the help does not tell the large follower's key"
    shows "Traders & Builders" && fail "the help tells an expansion not played"
    keys Space
    wait_for "THE BOARD'S SYMBOLS"
    shows "an inn beside a road" || fail "the legend does not explain the inn"
    shows "a cathedral: its city 3" || fail "the legend does not explain the cathedral"
    shows "a large follower: counts 2" || fail "the legend does not explain the large follower"
    keys Escape
    finish
}

# An inn road and IH's closed field through the inspector and the spot
# list: a record puts IH north of the start tile and an inn road east.
t_inns_inspect() {
    printf 'players 2\nexpansions inns-cathedrals\nseed 1\nIB 1 0 0\n' >inn.rec
    mkdir -p "$XDG_DATA_HOME/carcassonne/saves"
    cp inn.rec "$XDG_DATA_HOME/carcassonne/saves/"
    start 100 32 --load inn.rec --players human,human --no-color
    wait_for "Resumed "
    keys i
    wait_for "Inspector"
    cursor_to 1 0
    i=0
    while ! shows "Inspector: road" && [ "$i" -lt 6 ]; do keys Tab; i=$((i + 1)); sleep 0.2; done
    wait_for "Inspector: road"
    shows "An inn: 2 a tile when" ||
        fail "the inspector does not say what the inn does"
    board_part | grep -q "△" || fail "no inn drawn on the board"
    finish
}

# The River with Inns & Cathedrals: 101 tiles (99 left once the spring is
# down and a river tile drawn), the large follower in the supply, the
# river laid first.
t_inns_river() {
    start 100 32 --expansions river,inns-cathedrals --seed 5 --players human,greedy --no-color
    wait_for "Place your tile"
    shows "Tiles left: 99" || fail "not 99 tiles left"
    shows "large follower: R 1 B 1" || fail "no large follower in the supply"
    case "$(drawn_tile)" in R[B-K]) ;; *) fail "the first tile is not a river tile" ;; esac
    # The symbols name the river in a game with The River (and the inn).
    keys '?'
    wait_for "Space: the board's symbols"
    keys Space
    wait_for "THE BOARD'S SYMBOLS"
    shows "cloister        ≈  river (The River)" || fail "the legend does not name the river"
    shows "an inn beside a road" || fail "the legend does not explain the inn"
    keys x
    wait_for "Place your tile"
    place_and_confirm 0
    wait_for "Turn 1: Red put"
    finish
}

# The follower step's list of spots ("Follower spots:", "Builder spots:"):
# not "spots:" alone, which the panel's "dead spots: 0" shows before it.
figure_spots='\(Follower\|Large follower\|Builder\|Pig\) spots:'

# place_at X Y: the cursor to square X,Y, a rotation that fits there (the
# only one, in these tests), Enter: the follower step. A wait for "spots:"
# was over before Enter was read (the panel's dead spots), so "Not in this
# rotation" could be looked for too soon and the tile was never placed
# (seen with the game slowed down after each key, as on a loaded machine).
place_at() {
    cursor_to "$1" "$2"
    keys Enter
    wait_for_re "$figure_spots"'\|Not in this rotation' "Enter at $1,$2: no follower step, no 'Not in this rotation'"
    if shows "Not in this rotation"; then
        keys r Enter
        wait_for_re "$figure_spots" "r and Enter at $1,$2: no follower step"
    fi
}

# put_figure NAME WORD MARK SPOT: in the follower step, f until the panel
# lists "NAME spots:", its first spot reading SPOT; then spot 1: the
# confirm line names WORD and the board shows MARK (not confirmed yet).
put_figure() {
    i=0
    while ! shows "$1 spots:" && [ "$i" -lt 4 ]; do
        key_then_message_changes f
        i=$((i + 1))
    done
    shows "$1 spots:" || fail "f never offered the $2"
    shows "$4" || fail "the spot does not name the $2"
    keys 1
    wait_for "Confirm the $2?"
    board_part | grep -q "$3" || fail "the $2 is not drawn"
}

# Traders & Builders. Seed 37 with Red's thief on the road west of the
# start (S 0 -1 1 W) and Blue's U beside it: Red's U at -2,-1 extends that
# road, so f in the follower step offers the builder (the panel names it,
# the tile shows it as a circled R, the confirm says so); the panel gives
# each player's goods and builder and pig; Blue's U at -3,-1, then Red's
# A at -4,-1 extends the builder's road: "Builder: play again", Red plays a
# second tile, then it is Blue's turn. The save has the builder; the help's
# second page explains the goods and the figures.
t_traders() {
    printf 'players 2\nexpansions traders-builders\nseed 37\nS 0 -1 1 W\nU -1 -1 1\n' >tb.rec
    mkdir -p "$XDG_DATA_HOME/carcassonne/saves"
    start 110 34 --load tb.rec --players human,human --no-color
    wait_for "Resumed "
    shows "plays tile U" || fail "not U for Red"
    shows "builder, pig: R 1 1 B 1 1" || fail "no builder and pig in the panel"
    shows "R 0/0/0 B 0/0/0" || fail "no goods in the panel"
    place_at -2 -1
    shows "f:figure" || fail "the keys do not offer f"
    put_figure Builder builder "Ⓡ" "1 builder on the road"
    keys Enter
    wait_for "builder, pig: R 0 1 B 1 1"
    board_part | grep -q "Ⓡ" || fail "the builder left the board"
    # Blue: U west of it, no follower.
    wait_for "Blue (human) plays tile U"
    place_at -3 -1
    keys 0
    wait_for "Confirm?"
    keys Enter
    wait_for "Red (human) plays tile A"
    place_at -4 -1
    keys 0
    wait_for "Confirm?"
    keys Enter
    wait_for "Builder: play again"
    shows "Red (human) plays tile" || fail "the second tile is not Red's"
    place_and_confirm 0
    wait_for "Blue (human) plays tile"
    shows "Builder: Red plays a second tile" || fail "the log does not say so"
    keys s
    wait_for "Save as:"
    keys Enter
    wait_for "the log says"
    saved=tb.rec # a loaded game is saved where it came from
    grep -q '^expansions traders-builders$' "$saved" || fail "no expansions line in the save"
    grep -q '^U -2 -1 1 E builder$' "$saved" || fail "the save has no builder"
    "$bin" replay "$saved" >/dev/null || fail "the saved record does not replay"
    keys '?'
    wait_for "CARCASSONNE - keys and rules"
    shows "takes its goods" || fail "the help does not tell the goods"
    shows "f in the follower step" || fail "the help does not tell the figure key"
    shows "The builder" || fail "the help does not tell the builder"
    shows "The pig" || fail "the help does not tell the pig"
    shows "Inns & Cathedrals" && fail "the help tells an expansion not played"
    keys Space
    wait_for "THE BOARD'S SYMBOLS"
    shows "wine" || fail "the legend does not explain the goods"
    shows "a builder" || fail "the legend does not explain the builder"
    shows "an inn beside a road" && fail "the legend explains the inn, not played here"
    keys Escape
    finish
}

# Traders & Builders, the pig. Seed 37 as above, but Red's first figure is
# a farmer south of the road west of the start (S 0 -1 1 WSW); Red's U at
# -2,-1 extends that farm, so f in the follower step reaches the pig (the
# panel heads its spots, the confirm line names it); confirmed, the pig
# stands on the board as a small circled r, the panel's figures line says
# Red's pig is out, and the save has the pig.
t_traders_pig() {
    printf 'players 2\nexpansions traders-builders\nseed 37\nS 0 -1 1 WSW\nU -1 -1 1\n' >pig.rec
    mkdir -p "$XDG_DATA_HOME/carcassonne/saves"
    start 110 34 --load pig.rec --players human,human --no-color
    wait_for "Resumed "
    shows "plays tile U" || fail "not U for Red"
    shows "builder, pig: R 1 1 B 1 1" || fail "no builder and pig in the panel"
    board_part | grep -q "ⓡ" && fail "a pig on the board before one was placed"
    place_at -2 -1
    put_figure Pig pig "ⓡ" "1 pig on the"
    keys Enter
    wait_for "builder, pig: R 1 0 B 1 1"
    board_part | grep -q "ⓡ" || fail "the pig left the board"
    wait_for "Blue (human) plays tile"
    keys s
    wait_for "Save as:"
    keys Enter
    wait_for "the log says"
    grep -q '^U -2 -1 1 [A-Z]* pig$' pig.rec || fail "the save has no pig"
    "$bin" replay pig.rec >/dev/null || fail "the saved record does not replay"
    finish
}

# A hand of tiles (--rules hand=3): the panel lists our hand, the tile to
# place in brackets, and only the size of the computer's ("3 tiles,
# hidden"); n chooses the next tile of the hand (the header and the
# brackets follow it); several turns are played with different tiles; the
# help says the keys.
# Our line of the panel's hands: "Red    [E] K U" (the players' line has a score).
hand_line() { capture; grep -o 'Red  *\[\{0,1\}[A-Z][]A-Z []*' "$screen_file" | head -1; }
held_tile() { hand_line | sed -n 's/.*\[\([A-Z]*\)\].*/\1/p'; }
t_hand() {
    start 100 32 --seed 3 --players human,greedy --rules hand=3 --no-color
    wait_for "Place your tile"
    wait_for "Hands (n: next tile)"
    tail -n 1 "$screen_file" | grep -q "n:next tile.* u:undo s:save ?:help q:quit" ||
        fail "the key line of a hand game leaves out a key: $(tail -n 1 "$screen_file")"
    shows "Blue   3 tiles, hidden" || fail "the computer's hand is not hidden, or not counted"
    [ -n "$(hand_line)" ] || fail "our hand is not listed"
    played=""
    for _ in 1 2 3 4; do
        wait_for "Place your tile"
        held=$(held_tile)
        [ -n "$held" ] || fail "no tile in brackets"
        [ "$(drawn_tile)" = "$held" ] || fail "the header's tile $(drawn_tile) is not the bracketed $held"
        hand=$(hand_line | tr -d '[]')
        kinds=$(echo "$hand" | cut -c7- | tr ' ' '\n' | grep -c . )
        distinct=$(echo "$hand" | cut -c7- | tr ' ' '\n' | grep . | sort -u | grep -c .)
        [ "$kinds" -eq 3 ] || fail "our hand holds $kinds tiles, not 3 ($hand)"
        if [ "$distinct" -gt 1 ]; then
            keys n
            wait_until_changed 'plays tile [A-Z]* ' "plays tile $held "
            now=$(held_tile)
            [ "$now" != "$held" ] || fail "n did not choose another tile"
            [ "$(drawn_tile)" = "$now" ] || fail "the header does not follow n"
            held=$now
        fi
        played="$played $held"
        next_human_turn
        shows "Blue   3 tiles, hidden" || shows "Blue   2 tiles, hidden" || fail "the computer's hand is shown"
    done
    echo "tiles played:$played"
    [ "$(echo "$played" | tr ' ' '\n' | grep . | sort -u | grep -c .)" -ge 2 ] || fail "the same tile every turn"
    # The save keeps the draws; loaded, the game shows the same hand.
    wait_for "Place your tile"
    before=$(hand_line)
    keys s
    wait_for "Save as: carcassonne-3.rec"
    keys Enter
    wait_for "the log says"
    saved="$XDG_DATA_HOME/carcassonne/saves/carcassonne-3.rec"
    grep -q '^rules hand=3$' "$saved" || fail "no hand=3 in the save"
    grep -q '^draw 1 [A-X] [A-X] [A-X]$' "$saved" || fail "no set-up draw in the save"
    "$bin" replay "$saved" >/dev/null || fail "the saved hand game does not replay"
    session=load # another game on the same tmux server
    start 100 32 --load carcassonne-3.rec --no-color
    wait_for "Resumed "
    wait_for "Hands (n: next tile)"
    [ "$(hand_line)" = "$before" ] || fail "loaded hand '$(hand_line)', saved '$before'"
    shows "Blue   3 tiles, hidden" || fail "the loaded game shows the computer's hand"
    finish
    session=game
    keys '?'
    wait_for "CARCASSONNE - keys and rules"
    shows "n N choose the tile to place from your hand" || fail "the help does not say n"
    keys Escape
    finish
}

# Every expansion and a hand at 80x24: the help is two pages (Space the
# next, Left back), all of what the game plays on them, then the symbols.
t_help_pages() {
    start 80 24 --seed 3 --players human,greedy --no-color \
        --expansions river,inns-cathedrals,traders-builders --rules hand=3
    wait_for "?:help"
    keys '?'
    wait_for "keys and rules, 1/2 (Space: next page"
    for text in "The River" "a road with an inn" "takes its goods" "The pig"; do
        shows "$text" || fail "the help's first page does not tell '$text'"
    done
    keys Space
    wait_for "keys and rules, 2/2 (Space: the board's symbols"
    for text in "A hand of 3 tiles" "n N choose the tile to place from your hand" "Letters:"; do
        shows "$text" || fail "the help's second page does not tell '$text'"
    done
    keys Left
    wait_for "keys and rules, 1/2"
    keys Space Space
    wait_for "THE BOARD'S SYMBOLS"
    keys Escape
    finish
}

# A finished Traders & Builders game (seed 9: Blue holds the most of one
# goods type): the final table has a goods row, and its rows add up to
# the total in every column (the goods' 10 points were in no row).
t_traders_final() {
    "$bin" selfplay --seed 9 --players 2 --expansions traders-builders --record full.rec >/dev/null
    start 100 30 --load full.rec --players human,greedy --no-color
    wait_for "Final scoring"
    grep -q '│goods  *0  *10$' "$screen_file" || fail "no goods row with Blue's 10 points"
    sums=$(sed -n 's/.*│\(roads\|cities\|cloisters\|farms\|goods\|total\)  *\([0-9]*\)  *\([0-9]*\)$/\1 \2 \3/p' \
        "$screen_file" | awk '$1 == "total" { t2 = $2; t3 = $3; next } { s2 += $2; s3 += $3 }
            END { print s2 " " s3 " / " t2 " " t3 }')
    [ "$(echo "$sums" | awk '{ print ($1 == $4 && $2 == $5) }')" = 1 ] ||
        fail "the final table's rows do not add up to its totals: $sums"
    finish
}

# With two expansions the tiles left (t) are 65 kinds, more than 80x24
# holds: they come in pages (Space the next, Left back), every kind on
# one of them; none was shown past the base game's 24. The panel's odds
# show the first kinds in order (A to I, then J) and say how many are
# left out, instead of cutting its columns at random places. The count
# above them fits the panel's 29 columns in other words ("Tiles left: 112,
# dead spots:" left its " 0" alone on a row).
t_tiles_pages() {
    start 80 24 --seed 3 --players human,greedy --no-color \
        --expansions inns-cathedrals,traders-builders
    wait_for "?:help"
    wait_for "38 kinds more: t shows all"
    shows "│112 tiles left, 0 dead spots" || fail "the tiles left and dead spots are not on one row"
    grep -q '│ *0 *$' "$screen_file" && fail "a row of the panel holds only the dead spots' 0"
    grep -q '│A  *[0-9]*  *[0-9]*% J  ' "$screen_file" ||
        fail "the panel's odds do not go down A to I, then J"
    keys t
    wait_for "Tiles left: 112 (1/3; Space: more"
    shows "X  1" || fail "the first page does not end with the base game's X"
    shows "IA 1" && fail "the first page shows Inns & Cathedrals' tiles too"
    keys Space
    wait_for "(2/3; Space: more"
    shows "IA 1" || fail "the second page does not start with IA"
    keys Space
    wait_for "(3/3; Left: back"
    shows "TX 1" || fail "the last page does not show TX"
    keys Left
    wait_for "(2/3; Space: more"
    keys Escape
    wait_for "?:help"
    finish
}

"t_$test_name"
echo "ok: $test_name"
