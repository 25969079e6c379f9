#!/bin/sh
# Runs a command under a window manager on the X display xvfb-run made: the studio's window
# then has a frame and a title bar, as on an analyst's screen. $1 is the window manager.
wm="$1"
shift
"$wm" &
wm_pid=$!
sleep 1
"$@"
status=$?
kill "$wm_pid" 2>/dev/null
exit $status
