# The Python side of the KiCad plugin: KiCad's python runtime runs an action script, which calls main().
# It finds Node (the package's own runtime first), runs the bundled `tracemaker kicad ACTION --json` with
# KiCad's environment, shows a route's progress with a Cancel button while it runs (wx), and then the
# result in a window beside the editor's toolbar: a short first line, details below, kept until closed
# when it is more than a line. Every result is also appended to results.log, which the message names.
# Exit 0 for every outcome of normal work (nothing to route, unrouted, busy, refused by DRC), 1 only for
# a fault (no API, no Node, a crash). Standard library only, plus wx when KiCad's Python has it;
# Windows, macOS and Linux alike. Everything else happens in Node.
import glob
import json
import os
import platform
import shutil
import stat
import subprocess
import sys
import tempfile
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
BUNDLE = os.path.join(HERE, "tracemaker.js")
MIN_NODE = 20
TITLES = {
    "routed": "routed",
    "cancelled": "route stopped",
    "busy": "KiCad is busy",
    "nothing_selected": "nothing selected",
    "no_nets": "no nets selected",
    "refused": "route refused",
    "already_routed": "nothing to route",
    "not_routed": "not routed",
    "route_running": "a route is running",
    "checked": "check",
    "summary": "unrouted connections",
    "panel": "panel",
    "no_kicad": "cannot reach KiCad",
    "kicad_too_old": "KiCad too old",
}
# A message of one short line closes itself after this long; a longer one stays until closed.
SHORT_SECONDS = 8
SHORT_CHARS = 100
NEED_NODE = ("TraceMaker could not find its Node.js runtime. Reinstall the TraceMaker package for your "
             "system from KiCad's Plugin and Content Manager, or install Node.js %d or later "
             "(nodejs.org) and restart KiCad, or set TRACEMAKER_NODE to a node program.") % MIN_NODE

# On Windows a console program started from KiCad would flash a console window without this.
NO_WINDOW = getattr(subprocess, "CREATE_NO_WINDOW", 0)
DETACHED = getattr(subprocess, "DETACHED_PROCESS", 0) | getattr(subprocess, "CREATE_NEW_PROCESS_GROUP", 0)


def runtime_key(system=None, machine=None):
    """The package's runtime folder for this OS and processor, named as Node names them ("win32-x64")."""
    system = system or sys.platform
    machine = (machine or platform.machine() or "").lower()
    os_name = "win32" if system.startswith("win") else "darwin" if system == "darwin" else "linux"
    arch = {"x86_64": "x64", "amd64": "x64", "x64": "x64", "aarch64": "arm64", "arm64": "arm64"}.get(machine, machine)
    return "%s-%s" % (os_name, arch)


def runtime_dir(env=None, system=None):
    """The per-user folder for logs and the host's channel; the Node side computes the same one."""
    env = os.environ if env is None else env
    system = system or sys.platform
    if env.get("TRACEMAKER_RUNTIME_DIR"):
        return env["TRACEMAKER_RUNTIME_DIR"]
    if system.startswith("win"):
        base = env.get("LOCALAPPDATA") or os.path.join(os.path.expanduser("~"), "AppData", "Local")
        return os.path.join(base, "tracemaker")
    if env.get("XDG_RUNTIME_DIR"):
        return os.path.join(env["XDG_RUNTIME_DIR"], "tracemaker")
    uid = os.getuid() if hasattr(os, "getuid") else 0
    return os.path.join(env.get("TMPDIR") or tempfile.gettempdir(), "tracemaker-%d" % uid)


def log(line):
    # KiCad discards a plugin's output, so problems go to a file the README points to.
    try:
        d = runtime_dir()
        os.makedirs(d, mode=0o700, exist_ok=True)
        with open(os.path.join(d, "launcher.log"), "a", encoding="utf-8") as f:
            f.write(line.rstrip() + "\n")
    except OSError:
        pass


def node_version(path):
    try:
        out = subprocess.run([path, "--version"], capture_output=True, text=True, timeout=20,
                             creationflags=NO_WINDOW).stdout.strip()
        return int(out.lstrip("v").split(".")[0])
    except (OSError, ValueError, subprocess.SubprocessError):
        return 0


def bundled_node(here=HERE, system=None, machine=None):
    """The package's own Node for this platform, made executable (the package manager drops the bit)."""
    system = system or sys.platform
    key = runtime_key(system, machine)
    exe = "node.exe" if key.startswith("win32") else "node"
    keys = [key]
    # An Apple-silicon Mac also runs the x64 build (Rosetta), should a package carry only that.
    if key == "darwin-arm64":
        keys.append("darwin-x64")
    for k in keys:
        path = os.path.join(here, "runtime", k, exe)
        if os.path.isfile(path):
            if not key.startswith("win32"):
                mode = os.stat(path).st_mode
                if not mode & stat.S_IXUSR:
                    try:
                        os.chmod(path, mode | stat.S_IXUSR | stat.S_IXGRP | stat.S_IXOTH)
                    except OSError as e:
                        log("cannot make %s executable: %s" % (path, e))
            return path
    return None


def node_candidates(env=None, system=None, here=HERE, home=None, which=shutil.which):
    """Where Node may be, best first: TRACEMAKER_NODE, the package's runtime, the PATH, the usual places."""
    env = os.environ if env is None else env
    system = system or sys.platform
    home = home or os.path.expanduser("~")
    out = [env.get("TRACEMAKER_NODE"), bundled_node(here, system), which("node")]
    if system.startswith("win"):
        for base in (env.get("ProgramFiles"), env.get("ProgramW6432"), env.get("LOCALAPPDATA") and os.path.join(env["LOCALAPPDATA"], "Programs")):
            if base:
                out.append(os.path.join(base, "nodejs", "node.exe"))
        if env.get("NVM_SYMLINK"):
            out.append(os.path.join(env["NVM_SYMLINK"], "node.exe"))
    else:
        # A desktop-started KiCad often has a short PATH, so look where Node is usually installed too.
        out += ["/usr/local/bin/node", "/usr/bin/node", "/opt/homebrew/bin/node", os.path.join(home, ".volta", "bin", "node")]
        out += sorted(glob.glob(os.path.join(home, ".nvm", "versions", "node", "*", "bin", "node")), reverse=True)
    seen = []
    for c in out:
        if c and c not in seen:
            seen.append(c)
    return seen


def find_node():
    for c in node_candidates():
        if os.path.isfile(c) and node_version(c) >= MIN_NODE:
            return c
    return None


def results_log():
    return os.path.join(runtime_dir(), "results.log")


def record(title, message):
    # The last results stay readable after their window is closed.
    try:
        d = runtime_dir()
        os.makedirs(d, mode=0o700, exist_ok=True)
        with open(results_log(), "a", encoding="utf-8") as f:
            f.write("%s  %s\n%s\n\n" % (time.strftime("%Y-%m-%d %H:%M:%S"), title, message.rstrip()))
    except OSError:
        pass


def lasting(message):
    """Seconds a message stays up by itself; 0 = until the user closes it (more than one short line)."""
    return SHORT_SECONDS if "\n" not in message and len(message) <= SHORT_CHARS else 0


def show(title, message, seconds=None):
    """Shows the result where the user sees it: a small wx window if KiCad's Python has wx, else the
    platform's own dialog (Windows message box, macOS dialog, Linux notification). `seconds` 0 keeps it
    until closed; None decides by the message's length."""
    if seconds is None:
        seconds = lasting(message)
    if os.environ.get("TRACEMAKER_NO_WINDOW") == "1":
        return
    quiet = dict(stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    if sys.platform.startswith("win"):
        # A separate process (wx or a message box), so this launcher returns and KiCad is never waiting.
        subprocess.Popen([sys.executable, os.path.abspath(__file__), "--show", title, message, str(seconds)],
                         creationflags=DETACHED | NO_WINDOW, **quiet)
        return
    if has_wx():
        subprocess.Popen([sys.executable, os.path.abspath(__file__), "--show", title, message, str(seconds)],
                         start_new_session=True, **quiet)
        return
    if sys.platform == "darwin":
        give_up = (" giving up after %d" % seconds) if seconds else ""
        script = 'display dialog %s with title %s buttons {"OK"} default button "OK"%s' % (
            applescript_text(message), applescript_text(title), give_up)
        subprocess.Popen(["/usr/bin/osascript", "-e", script], start_new_session=True, **quiet)
        return
    for cmd in (["notify-send", "-t", str(seconds * 1000), title, message],
                ["zenity", "--info", "--title", title, "--text", message] + (["--timeout", str(seconds)] if seconds else []),
                ["kdialog", "--title", title, "--msgbox", message] if not seconds else ["kdialog", "--title", title, "--passivepopup", message, str(seconds)]):
        if shutil.which(cmd[0]):
            subprocess.Popen(cmd, start_new_session=True, **quiet)
            return


def has_wx():
    try:
        import wx  # noqa: F401 (only probing)
        return True
    except ImportError:
        return False


def applescript_text(s):
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"') + '"'


_APP = []


def wx_app():
    """The process's one wx.App: a second one after the first has run crashes wx (seen: SIGSEGV when
    the running-route question followed the progress window)."""
    import wx
    if not _APP:
        _APP.append(wx.App(False))
    return _APP[0]


def beside_toolbar(frame):
    """Puts a window at the top right of the screen under the pointer, below the editor's menus and
    toolbar: away from the canvas's centre, where the new copper is."""
    import wx
    index = wx.Display.GetFromPoint(wx.GetMousePosition())
    area = wx.Display(index if index != wx.NOT_FOUND else 0).GetClientArea()
    w, _h = frame.GetSize()
    frame.SetPosition((area.x + area.width - w - 24, area.y + 96))


def window(title, message, seconds):
    try:
        import wx
    except ImportError:
        # Only Windows gets here without wx: its own message box, topmost, from this detached process.
        import ctypes
        ctypes.windll.user32.MessageBoxW(None, message, title, 0x40 | 0x40000)
        return

    app = wx.App(False)
    frame = wx.Frame(None, title=title, style=wx.CAPTION | wx.CLOSE_BOX | wx.STAY_ON_TOP)
    panel = wx.Panel(frame)
    first, _, rest = message.partition("\n")
    head = wx.StaticText(panel, label=first)
    font = head.GetFont()
    font.SetWeight(wx.FONTWEIGHT_BOLD)
    head.SetFont(font)
    head.Wrap(460)
    sizer = wx.BoxSizer(wx.VERTICAL)
    sizer.Add(head, 0, wx.LEFT | wx.RIGHT | wx.TOP, 14)
    if rest:
        body = wx.StaticText(panel, label=rest)
        body.Wrap(460)
        sizer.Add(body, 0, wx.ALL, 14)
    ok = wx.Button(panel, wx.ID_OK, "OK")
    ok.Bind(wx.EVT_BUTTON, lambda _e: frame.Close())
    sizer.Add(ok, 0, wx.ALIGN_RIGHT | wx.RIGHT | wx.BOTTOM | wx.TOP, 10)
    panel.SetSizerAndFit(sizer)
    frame.Fit()
    beside_toolbar(frame)
    frame.Show()
    if seconds > 0:
        wx.CallLater(seconds * 1000, frame.Close)
    app.MainLoop()


class Progress:
    """The route's progress window (wx), shown at once on the click, before Node is even looked for:
    what the router is doing, the connections it has made of how many, the time so far, and Cancel,
    which asks the host to stop and keep the best complete result. Lives in this launcher process;
    KiCad does not wait for it."""

    def __init__(self):
        import wx
        self.wx = wx
        self.proc = None
        self.cancelled = False
        self.started = time.time()
        self.state = {"phase": "starting", "made": 0, "connections": 0}
        self.app = wx_app()
        self.frame = wx.Frame(None, title="TraceMaker: routing", style=wx.CAPTION | wx.STAY_ON_TOP)
        panel = wx.Panel(self.frame)
        self.what = wx.StaticText(panel, label="Reading the board and the selection")
        self.count = wx.StaticText(panel, label="")
        # Fixed, so the window keeps its size while the labels change.
        note = wx.StaticText(panel, label="The router tries several net orders and keeps the best.\nCancel keeps the best complete result found so far.")
        self.gauge = wx.Gauge(panel, range=100, size=(360, 14))
        self.cancel = wx.Button(panel, wx.ID_CANCEL, "Cancel")
        self.cancel.Bind(wx.EVT_BUTTON, self.on_cancel)
        sizer = wx.BoxSizer(wx.VERTICAL)
        sizer.Add(self.what, 0, wx.LEFT | wx.RIGHT | wx.TOP, 14)
        sizer.Add(self.count, 0, wx.LEFT | wx.RIGHT | wx.TOP, 14)
        sizer.Add(self.gauge, 0, wx.ALL | wx.EXPAND, 14)
        sizer.Add(note, 0, wx.LEFT | wx.RIGHT, 14)
        sizer.Add(self.cancel, 0, wx.ALIGN_RIGHT | wx.ALL, 10)
        panel.SetSizerAndFit(sizer)
        self.frame.Fit()
        beside_toolbar(self.frame)
        self.timer = wx.Timer(self.frame)
        self.frame.Bind(wx.EVT_TIMER, lambda _e: self.refresh(), self.timer)
        self.timer.Start(250)
        self.refresh()
        self.frame.Show()

    def attach(self, proc):
        """Called from the worker thread once Node runs; a Cancel pressed before then is passed on now."""
        self.proc = proc
        if self.cancelled:
            self.wx.CallAfter(self.send_cancel)

    def on_cancel(self, _e):
        self.cancelled = True
        self.cancel.Disable()
        self.cancel.SetLabel("Stopping")
        self.what.SetLabel("Stopping after the current search")
        self.send_cancel()

    def send_cancel(self):
        if self.proc is None:
            return
        try:
            self.proc.stdin.write("cancel\n")
            self.proc.stdin.flush()
        except (OSError, ValueError) as e:
            log("could not pass Cancel on: %s" % e)

    def update(self, p):
        self.state = p
        self.wx.CallAfter(self.refresh)

    def refresh(self):
        p = self.state
        elapsed = int(time.time() - self.started)
        if p.get("phase") == "routing" and p.get("connections"):
            if not self.cancelled:
                self.what.SetLabel("Routing the selected nets")
            self.count.SetLabel("%d of %d connections made, %d s" % (p["made"], p["connections"], elapsed))
            self.gauge.SetValue(int(100 * min(p["made"], p["connections"]) / p["connections"]))
        else:
            self.count.SetLabel("%d s" % elapsed)
            self.gauge.Pulse()

    def close(self):
        self.wx.CallAfter(self.frame.Destroy)

    def run(self):
        self.app.MainLoop()


# The exit status of `tracemaker_launch.py --ask` when the user chose to cancel the running route.
ASK_CANCEL = 10


def ask_cancel_or_wait(title, message):
    """A second click while a route runs: Cancel the route, or Wait for it. True = cancel."""
    import wx
    wx_app()
    dlg = wx.MessageDialog(None, message, title, wx.YES_NO | wx.STAY_ON_TOP | wx.ICON_QUESTION)
    dlg.SetYesNoLabels("Cancel the route", "Wait")
    answer = dlg.ShowModal()
    dlg.Destroy()
    return answer == wx.ID_YES


def node_command(node, action, progress=False):
    return [node, BUNDLE, "kicad", action, "--json"] + (["--progress"] if progress else [])


def run_node(node, action, window=None):
    """Runs the Node side and returns (its last line, its stderr, its exit status). With a progress
    window, Node prints a route's progress lines and takes a "cancel" line on stdin."""
    proc = subprocess.Popen(node_command(node, action, window is not None), stdin=subprocess.PIPE if window else subprocess.DEVNULL,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, encoding="utf-8", errors="replace",
                            cwd=HERE, creationflags=NO_WINDOW)
    err = []
    reader = threading.Thread(target=lambda: err.append(proc.stderr.read()), daemon=True)
    reader.start()
    if window is not None:
        window.attach(proc)
    last = ""
    for line in proc.stdout:
        line = line.strip()
        if not line:
            continue
        if window is not None and line.startswith('{"progress"'):
            try:
                window.update(json.loads(line)["progress"])
            except (ValueError, KeyError):
                pass
            continue
        last = line
    proc.wait()
    reader.join(5)
    return last, "".join(err), proc.returncode


def run(action):
    # A route shows its window first, so the user sees the click taken within the first second.
    window = None
    if action == "route-selected" and os.environ.get("TRACEMAKER_NO_WINDOW") != "1" and has_wx():
        window = Progress()
    outcome = {}

    def work():
        try:
            node = find_node()
            outcome["node"] = node
            if node is not None:
                outcome["ran"] = run_node(node, action, window)
        except Exception as e:  # noqa: BLE001 (reported by main's handler below)
            outcome["error"] = e
        finally:
            if window is not None:
                window.close()

    if window is None:
        work()
    else:
        worker = threading.Thread(target=work, daemon=True)
        worker.start()
        window.run()
        worker.join()
    if "error" in outcome:
        raise outcome["error"]
    node = outcome.get("node")
    if node is None:
        log(NEED_NODE)
        record("TraceMaker: Node.js not found", NEED_NODE)
        show("TraceMaker: Node.js not found", NEED_NODE, 0)
        return 1
    line, err, status = outcome["ran"]
    try:
        result = json.loads(line)
    except ValueError:
        msg = "TraceMaker failed to run (exit %d)\n%s" % (status, (err or line).strip()[-400:])
        log(msg)
        record("TraceMaker: failed", msg)
        show("TraceMaker: failed", msg + "\nLog: " + os.path.join(runtime_dir(), "launcher.log"), 0)
        return 1
    if err:
        log(err)
    code = result.get("code", "failed")
    title = "TraceMaker: " + TITLES.get(code, code.replace("_", " "))
    message = result.get("message", "")
    record(title, message)
    if code == "route_running":
        # The question runs in a process of its own: a wx dialog after this process's progress window
        # has closed its main loop crashes wx (SIGSEGV in ShowModal, seen with wxPython 4.2).
        if os.environ.get("TRACEMAKER_NO_WINDOW") != "1" and has_wx():
            asked = subprocess.run([sys.executable, os.path.abspath(__file__), "--ask", title, message], creationflags=NO_WINDOW)
            cancel = asked.returncode == ASK_CANCEL
        else:
            show(title, message + "\nPress the button again to see how it goes.")
            cancel = False
        if cancel:
            subprocess.run(node_command(node, "cancel"), capture_output=True, cwd=HERE, creationflags=NO_WINDOW)
        return 0
    footer = "These and earlier results: " + results_log()
    show(title, message + "\n" + footer if "\n" in message else message)
    return int(result.get("exit_code", 0 if result.get("ok") else 1))


def main(action):
    # Whatever goes wrong here, the user hears of it: KiCad shows nothing of a plugin that failed.
    try:
        return run(action)
    except Exception as e:  # noqa: BLE001
        msg = "TraceMaker failed: %s: %s (log: %s)" % (type(e).__name__, e, os.path.join(runtime_dir(), "launcher.log"))
        log(msg)
        try:
            show("TraceMaker: failed", msg, 0)
        except Exception as e2:  # noqa: BLE001
            log("could not show the failure: %s" % e2)
        return 1


if __name__ == "__main__":
    if len(sys.argv) == 5 and sys.argv[1] == "--show":
        window(sys.argv[2], sys.argv[3], int(sys.argv[4]))
    elif len(sys.argv) == 4 and sys.argv[1] == "--ask":
        sys.exit(ASK_CANCEL if ask_cancel_or_wait(sys.argv[2], sys.argv[3]) else 0)
    elif len(sys.argv) == 2:
        sys.exit(main(sys.argv[1]))
    else:
        sys.stderr.write("usage: tracemaker_launch.py route-selected|check|open-panel|cancel\n")
        sys.exit(2)
