"""cdp.py: headless Chromium driven over the DevTools protocol, with the
Python standard library only.

Chromium is started with --remote-debugging-pipe: it reads commands on its
file descriptor 3 and writes answers and events on 4, each message one JSON
text ended by a NUL byte.  Nothing listens on a port, and the browser is
told to make no network connection of its own (no updates, no sync, no
background requests); the pages it is given are file:// pages that load
nothing either.

    with Browser(chromium_path, scratch_dir) as b:
        page = b.page(1000, 800)            # a tab with that viewport
        page.goto("file:///.../game.html")  # returns when loaded
        page.eval("document.title")
        page.key("ArrowLeft")
        png = page.screenshot(clip)         # PNG bytes

Used by tests/browser/test_html.py and bench/html.py.
"""

import base64
import fcntl
import json
import os
import select
import shutil
import subprocess
import time

CHROMIUM_FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-default-apps",
    "--disable-extensions",
    "--mute-audio",
    "--hide-scrollbars",
    "--force-device-scale-factor=1",
    "--remote-debugging-pipe",
]


def find_chromium():
    """Chromium's path, found the one documented way: `chromium` on $PATH,
    else /usr/bin/chromium; None when it is not there."""
    path = shutil.which("chromium")
    if path:
        return path
    if os.access("/usr/bin/chromium", os.X_OK):
        return "/usr/bin/chromium"
    return None


class ProtocolError(Exception):
    pass


class Browser:
    def __init__(self, chromium, scratch, timeout=30.0):
        self.timeout = timeout
        self.next_id = 0
        self.buf = b""
        self.events = []
        profile = os.path.join(scratch, "profile")
        os.makedirs(profile, exist_ok=True)
        to_chrome_r, self.to_chrome = os.pipe()
        self.from_chrome, from_chrome_w = os.pipe()

        def wire_fds():
            # The browser's fds 3 and 4, whatever numbers the pipes got.
            # Every other descriptor of this process is close-on-exec
            # (Python opens them so), hence close_fds=False below.
            a = fcntl.fcntl(to_chrome_r, fcntl.F_DUPFD_CLOEXEC, 10)
            b = fcntl.fcntl(from_chrome_w, fcntl.F_DUPFD_CLOEXEC, 10)
            os.dup2(a, 3)
            os.dup2(b, 4)

        self.log = open(os.path.join(scratch, "chromium.log"), "wb")
        self.proc = subprocess.Popen(
            [chromium] + CHROMIUM_FLAGS + ["--user-data-dir=" + profile, "about:blank"],
            stdin=subprocess.DEVNULL, stdout=self.log, stderr=self.log,
            preexec_fn=wire_fds, close_fds=False)
        os.close(to_chrome_r)
        os.close(from_chrome_w)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def close(self):
        if self.proc.poll() is None:
            try:
                self.send("Browser.close")
            except (ProtocolError, OSError):
                pass
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        for fd in (self.to_chrome, self.from_chrome):
            try:
                os.close(fd)
            except OSError:
                pass
        self.log.close()

    def _read_message(self, deadline):
        while b"\0" not in self.buf:
            left = deadline - time.monotonic()
            if left <= 0:
                raise ProtocolError("no answer from chromium in time")
            ready, _, _ = select.select([self.from_chrome], [], [], left)
            if not ready:
                continue
            chunk = os.read(self.from_chrome, 1 << 20)
            if not chunk:
                raise ProtocolError("chromium closed its pipe (see chromium.log)")
            self.buf += chunk
        msg, self.buf = self.buf.split(b"\0", 1)
        return json.loads(msg)

    def send(self, method, params=None, session=None):
        """Send a command and return its result (events that come before it
        are kept in self.events)."""
        self.next_id += 1
        mid = self.next_id
        msg = {"id": mid, "method": method, "params": params or {}}
        if session:
            msg["sessionId"] = session
        data = json.dumps(msg).encode() + b"\0"
        while data:
            data = data[os.write(self.to_chrome, data):]
        deadline = time.monotonic() + self.timeout
        while True:
            m = self._read_message(deadline)
            if m.get("id") == mid:
                if "error" in m:
                    raise ProtocolError("%s: %s" % (method, m["error"]))
                return m.get("result", {})
            self.events.append(m)

    def wait_event(self, method, session=None, timeout=None):
        """The first event called `method` (of `session`), waiting for it."""
        deadline = time.monotonic() + (timeout or self.timeout)
        while True:
            for i, m in enumerate(self.events):
                if m.get("method") == method and (session is None or m.get("sessionId") == session):
                    return self.events.pop(i)
            self.events.append(self._read_message(deadline))

    def page(self, width=1200, height=900, javascript=True):
        target = self.send("Target.createTarget", {"url": "about:blank"})["targetId"]
        session = self.send("Target.attachToTarget", {"targetId": target, "flatten": True})["sessionId"]
        return Page(self, target, session, width, height, javascript)


class Page:
    def __init__(self, browser, target, session, width, height, javascript):
        self.b = browser
        self.target = target
        self.session = session
        self.cmd("Page.enable")
        self.cmd("Runtime.enable")
        self.cmd("Emulation.setDeviceMetricsOverride",
                 {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": False})
        if not javascript:
            self.cmd("Emulation.setScriptExecutionDisabled", {"value": True})

    def cmd(self, method, params=None):
        return self.b.send(method, params, self.session)

    def goto(self, url):
        self.b.events = [e for e in self.b.events if e.get("sessionId") != self.session]
        self.cmd("Page.navigate", {"url": url})
        self.b.wait_event("Page.loadEventFired", self.session)

    def eval(self, expression):
        """The value of a JavaScript expression (promises awaited)."""
        r = self.cmd("Runtime.evaluate", {"expression": expression, "returnByValue": True,
                                          "awaitPromise": True})
        if "exceptionDetails" in r:
            raise ProtocolError("%s: %s" % (expression, r["exceptionDetails"]))
        return r["result"].get("value")

    KEYS = {"ArrowLeft": 37, "ArrowUp": 38, "ArrowRight": 39, "ArrowDown": 40,
            "Home": 36, "End": 35, "f": 70}

    def key(self, key):
        """Press and release a key, as a keyboard would."""
        code = self.KEYS[key]
        for kind in ("rawKeyDown", "keyUp"):
            self.cmd("Input.dispatchKeyEvent", {
                "type": kind, "key": key, "code": key if len(key) > 1 else "Key" + key.upper(),
                "windowsVirtualKeyCode": code, "nativeVirtualKeyCode": code})

    def click(self, x, y):
        for kind in ("mousePressed", "mouseReleased"):
            self.cmd("Input.dispatchMouseEvent",
                     {"type": kind, "x": x, "y": y, "button": "left", "clickCount": 1})

    def screenshot(self, clip=None):
        params = {"format": "png"}
        if clip:
            params["clip"] = dict(clip, scale=1)
        return base64.b64decode(self.cmd("Page.captureScreenshot", params)["data"])

    def close(self):
        self.b.send("Target.closeTarget", {"targetId": self.target})

