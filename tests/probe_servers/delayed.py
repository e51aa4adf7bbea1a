"""Start a server late: ``delayed.py SECONDS COMMAND [ARGS...]`` sleeps, then becomes COMMAND
(exec: same process, same pipes), as a wrapper script or a cold ``npx -y`` does. Whatever the
client writes meanwhile waits in the pipe."""

import os
import sys
import time

time.sleep(float(sys.argv[1]))
os.execv(sys.argv[2], sys.argv[2:])
