#!/usr/bin/env python3
"""Drives headless Chromium through the DevTools protocol over --remote-debugging-pipe (fds 3 and 4, NUL-separated
JSON: no port opened, no package needed) for the live view's tests (Tests/AxonViewTests).

    view-browser.py --url URL --steps STEPS.json --out DIR  →  one JSON object on stdout:
    {"ok": bool, "errors": [console errors], "results": {name: value}, "failures": [text], "screenshots": [paths]}

Steps, in order:
    {"wait": "JS expression", "timeout": 20}         poll every 0.1 s until the expression is truthy
    {"eval": "JS expression", "name": "x"}           results["x"] = its value
    {"click": "CSS selector"}                        click the element
    {"screenshot": "raw.png"}                        PNG of the whole page into --out
    {"navigate": "URL"}                              load another URL in the same tab (cookies kept)
    {"serve": "HTML", "name": "x"}                   serve HTML from a throw-away http.server on a free port of
                                                     127.0.0.1 (another origin than the view's) and load it in the
                                                     same tab; results["x"] = that page's origin
    {"columns": "CSS selector", "xs": [..], "name": "x", "png": "file.png"}
                                                     screenshot of the element; results["x"] = for each x (CSS px
                                                     from the element's left edge) the number of green pixels
                                                     (G > 150, R < 110, B < 110) in that pixel column
Chromium runs with background networking, component updates, sync and default apps off and a throw-away profile,
so the only address it talks to is the URL given (127.0.0.1). --resolve NAME makes Chromium resolve NAME to
127.0.0.1 (what a DNS-rebinding domain does), with no DNS query.
"""
import argparse
import base64
import http.server
import json
import os
import shutil
import struct
import subprocess
import sys
import tempfile
import threading
import time
import zlib


def find_chromium():
    for name in ("chromium", "chromium-browser", "google-chrome"):
        path = shutil.which(name)
        if path:
            return path
    return None


class Browser:
    def __init__(self, profile, resolve=()):
        to_chrome_r, to_chrome_w = os.pipe()
        from_chrome_r, from_chrome_w = os.pipe()

        def wire_fds():
            os.dup2(to_chrome_r, 3)
            os.dup2(from_chrome_w, 4)

        args = [
            find_chromium(), "--headless", "--no-first-run", "--disable-background-networking",
            "--disable-component-update", "--disable-sync", "--disable-default-apps", "--no-default-browser-check",
            "--disable-extensions",
            # A rebinding name is plain HTTP on a port: no automatic HTTPS attempt first.
            "--disable-features=Translate,MediaRouter,OptimizationHints"
            + (",HttpsUpgrades,HttpsFirstBalancedModeAutoEnable" if resolve else ""),
            "--metrics-recording-only", "--disable-crash-reporter", "--no-sandbox", "--disable-gpu",
            "--hide-scrollbars", "--user-data-dir=" + profile, "--remote-debugging-pipe", "--window-size=1280,1000",
        ] + (["--host-resolver-rules=" + ", ".join(f"MAP {name} 127.0.0.1" for name in resolve)] if resolve else []) + [
            "about:blank",
        ]
        self.process = subprocess.Popen(
            args, pass_fds=(3, 4), preexec_fn=wire_fds, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL)
        os.close(to_chrome_r)
        os.close(from_chrome_w)
        self.writer = os.fdopen(to_chrome_w, "wb")
        self.reader = os.fdopen(from_chrome_r, "rb")
        self.buffer = b""
        self.next_id = 0
        self.events = []
        self.session = None

    def _read_message(self):
        while b"\0" not in self.buffer:
            chunk = os.read(self.reader.fileno(), 1 << 16)
            if not chunk:
                raise RuntimeError("chromium closed the DevTools pipe")
            self.buffer += chunk
        text, self.buffer = self.buffer.split(b"\0", 1)
        return json.loads(text)

    def send(self, method, params=None, session=True):
        self.next_id += 1
        message = {"id": self.next_id, "method": method, "params": params or {}}
        if session and self.session:
            message["sessionId"] = self.session
        self.writer.write(json.dumps(message).encode() + b"\0")
        self.writer.flush()
        while True:
            reply = self._read_message()
            if reply.get("id") == self.next_id:
                if "error" in reply:
                    raise RuntimeError(f"{method}: {reply['error']}")
                return reply.get("result", {})
            if "method" in reply:
                self.events.append(reply)

    def attach(self):
        targets = self.send("Target.getTargets", session=False)["targetInfos"]
        page = next(t for t in targets if t["type"] == "page")
        self.session = self.send(
            "Target.attachToTarget", {"targetId": page["targetId"], "flatten": True}, session=False)["sessionId"]
        for domain in ("Runtime", "Log", "Page"):
            self.send(domain + ".enable")
        self.send("Emulation.setDeviceMetricsOverride",
                  {"width": 1280, "height": 1000, "deviceScaleFactor": 1, "mobile": False})

    def evaluate(self, expression):
        result = self.send("Runtime.evaluate", {"expression": expression, "returnByValue": True, "awaitPromise": True})
        if "exceptionDetails" in result:
            raise RuntimeError(f"evaluating {expression!r}: {result['exceptionDetails'].get('text')}")
        return result["result"].get("value")

    def errors(self):
        found = []
        for event in self.events:
            method, params = event["method"], event.get("params", {})
            if method == "Runtime.consoleAPICalled" and params.get("type") in ("error", "assert"):
                found.append("console: " + " ".join(str(a.get("value", a.get("description"))) for a in params["args"]))
            elif method == "Runtime.exceptionThrown":
                details = params["exceptionDetails"]
                found.append("exception: " + details.get("exception", {}).get("description", details.get("text")))
            elif method == "Log.entryAdded" and params["entry"]["level"] == "error":
                found.append("log: " + params["entry"]["text"] + " " + params["entry"].get("url", ""))
        return found

    def screenshot(self, clip):
        params = {"format": "png", "captureBeyondViewport": True, "clip": dict(clip, scale=1)}
        return base64.b64decode(self.send("Page.captureScreenshot", params)["data"])

    def close(self):
        try:
            self.send("Browser.close", session=False)
        except (RuntimeError, OSError, BrokenPipeError):
            pass
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()


def decode_png(data):
    """8-bit RGB/RGBA, non-interlaced (what Chromium writes) → (width, height, rows of RGB tuples)."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    position, idat, width, height, channels = 8, b"", 0, 0, 0
    while position < len(data):
        length, kind = struct.unpack(">I4s", data[position:position + 8])
        body = data[position + 8:position + 8 + length]
        position += 12 + length
        if kind == b"IHDR":
            width, height, depth, color, _, _, interlace = struct.unpack(">IIBBBBB", body)
            assert depth == 8 and interlace == 0 and color in (2, 6), "unsupported PNG"
            channels = 3 if color == 2 else 4
        elif kind == b"IDAT":
            idat += body
        elif kind == b"IEND":
            break
    raw = zlib.decompress(idat)
    stride = width * channels
    rows, previous, offset = [], bytearray(stride), 0
    for _ in range(height):
        kind, line = raw[offset], bytearray(raw[offset + 1:offset + 1 + stride])
        offset += 1 + stride
        for i in range(stride):
            left = line[i - channels] if i >= channels else 0
            up = previous[i]
            upper_left = previous[i - channels] if i >= channels else 0
            if kind == 1:
                line[i] = (line[i] + left) & 0xFF
            elif kind == 2:
                line[i] = (line[i] + up) & 0xFF
            elif kind == 3:
                line[i] = (line[i] + (left + up) // 2) & 0xFF
            elif kind == 4:
                p = left + up - upper_left
                pa, pb, pc = abs(p - left), abs(p - up), abs(p - upper_left)
                predictor = left if pa <= pb and pa <= pc else (up if pb <= pc else upper_left)
                line[i] = (line[i] + predictor) & 0xFF
        rows.append([tuple(line[x * channels:x * channels + 3]) for x in range(width)])
        previous = line
    return width, height, rows


def serve(html):
    """An http.server on a free port of 127.0.0.1 answering every GET with `html`, on a daemon thread."""
    body = html.encode()

    class Page(http.server.BaseHTTPRequestHandler):
        def do_GET(self):
            self.send_response(200)
            self.send_header("Content-Type", "text/html; charset=utf-8")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args):
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Page)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


def run(args):
    steps = json.load(open(args.steps))
    os.makedirs(args.out, exist_ok=True)
    profile = tempfile.mkdtemp(prefix="axon-view-chromium-")
    output = {"ok": False, "errors": [], "results": {}, "failures": [], "screenshots": []}
    browser = Browser(profile, args.resolve)
    servers = []
    try:
        browser.attach()
        browser.send("Page.navigate", {"url": args.url})
        for step in steps:
            if "wait" in step:
                deadline = time.monotonic() + step.get("timeout", 20)
                while True:
                    try:
                        value = browser.evaluate(step["wait"])
                    except RuntimeError:  # the page is still loading: the element is not there yet
                        value = None
                    if value:
                        break
                    if time.monotonic() > deadline:
                        output["failures"].append(f"timed out waiting for {step['wait']}")
                        raise StopIteration
                    time.sleep(0.1)
            elif "eval" in step:
                output["results"][step["name"]] = browser.evaluate(step["eval"])
            elif "navigate" in step:
                browser.send("Page.navigate", {"url": step["navigate"]})
            elif "serve" in step:
                server = serve(step["serve"])
                servers.append(server)
                origin = f"http://127.0.0.1:{server.server_address[1]}"
                output["results"][step["name"]] = origin
                browser.send("Page.navigate", {"url": origin + "/"})
            elif "click" in step:
                browser.evaluate(f"document.querySelector({json.dumps(step['click'])}).click()")
            elif "screenshot" in step:
                size = browser.evaluate(
                    "[document.documentElement.scrollWidth, document.documentElement.scrollHeight]")
                png = browser.screenshot({"x": 0, "y": 0, "width": size[0], "height": size[1]})
                path = os.path.join(args.out, step["screenshot"])
                open(path, "wb").write(png)
                output["screenshots"].append(path)
            elif "columns" in step:
                box = browser.evaluate(
                    f"(() => {{ const r = document.querySelector({json.dumps(step['columns'])})"
                    ".getBoundingClientRect(); return [r.left + scrollX, r.top + scrollY, r.width, r.height]; })()")
                png = browser.screenshot({"x": box[0], "y": box[1], "width": box[2], "height": box[3]})
                if step.get("png"):
                    path = os.path.join(args.out, step["png"])
                    open(path, "wb").write(png)
                    output["screenshots"].append(path)
                width, height, rows = decode_png(png)
                counts = {}
                for x in step["xs"]:
                    column = int(round(x))
                    counts[str(x)] = sum(
                        1 for y in range(height)
                        if 0 <= column < width and rows[y][column][1] > 150 and rows[y][column][0] < 110
                        and rows[y][column][2] < 110)
                output["results"][step["name"]] = counts
        output["ok"] = True
    except StopIteration:
        pass
    except Exception as error:  # reported to the test, which fails with it
        output["failures"].append(f"{type(error).__name__}: {error}")
    finally:
        output["errors"] = browser.errors()
        browser.close()
        for server in servers:
            server.shutdown()
        shutil.rmtree(profile, ignore_errors=True)
    json.dump(output, sys.stdout)
    sys.stdout.write("\n")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--url", required=True)
    parser.add_argument("--steps", required=True)
    parser.add_argument("--out", required=True)
    parser.add_argument("--resolve", action="append", default=[], metavar="NAME",
                        help="resolve NAME to 127.0.0.1 in Chromium (a DNS-rebinding name); repeatable")
    if not find_chromium():
        print(json.dumps({"ok": False, "failures": ["chromium not installed"]}))
        sys.exit(2)
    run(parser.parse_args())
