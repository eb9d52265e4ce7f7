"""A short-lived process's last notification reaches the channel layer.

``games.live.notify`` hands a production notification to a sender loop on a
daemon thread and does not wait for Redis.  A management command, or any
process that commits a change and exits at once, used to exit before its
``table.changed`` left that thread: the browsers on the room heard nothing
until the next change.  The sender loop now registers ``notify.flush`` with
``atexit``.  Real processes and the real channel layer (channels-redis on the
run's Redis): this test listens on a group; a child process sends one message
to it and returns from its script at once.
"""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
import uuid

import pytest
from channels.layers import get_channel_layer

from .stack import REPO

pytestmark = pytest.mark.production

CHILD = """
import json, sys
import django
django.setup()
from games.live import notify
group, room = sys.argv[1], int(sys.argv[2])
notify.send([group], notify.message(7, room=room), what="at-exit test")
print(json.dumps({"sent": True}), flush=True)
"""  # and nothing else: the interpreter exits right after the hand-over


@pytest.mark.parametrize("round_", range(3))
def test_a_notification_sent_just_before_the_process_exits_arrives(round_):
    layer = get_channel_layer()
    group = f"exit-{uuid.uuid4().hex[:12]}"
    room = 900_000 + round_

    async def listen():
        channel = await layer.new_channel()
        await layer.group_add(group, channel)
        try:
            # the run's settings (the same Redis and channel layer); the child
            # touches no database
            env = dict(os.environ, DJANGO_SETTINGS_MODULE="config.settings",
                       DJANGO_SECRET_KEY="notify-at-exit-" + "k" * 40)
            child = await asyncio.create_subprocess_exec(
                sys.executable, "-c", CHILD, group, str(room), cwd=str(REPO), env=env,
                stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE)
            out, err = await asyncio.wait_for(child.communicate(), timeout=60)
            assert child.returncode == 0, err.decode()[-2000:]
            assert json.loads(out.decode().strip().splitlines()[-1]) == {"sent": True}
            # the child has exited: whatever it handed over has been sent or is lost
            return await asyncio.wait_for(layer.receive(channel), timeout=5)
        finally:
            await layer.group_discard(group, channel)

    try:
        got = asyncio.run(listen())
    except asyncio.TimeoutError:
        pytest.fail("the child's notification never reached the group: it was lost at exit")
    assert got["type"] == "table.changed"
    assert (got["room"], got["version"]) == (room, 7)
