# The Python side of the KiCad plugin: KiCad's python runtime runs an action script, which calls main().
# It finds Node (20 or later), runs the bundled `tracemaker kicad ACTION --json` with KiCad's environment,
# and shows the one-line result in a small window that closes itself. Standard library only, plus wx when
# KiCad's Python has it; everything else (the host, routing, writing) happens in Node.
import glob
import json
import os
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
BUNDLE = os.path.join(HERE, "tracemaker.js")
TITLES = {
    "routed": "routed",
    "busy": "KiCad is busy",
    "nothing_selected": "nothing selected",
    "refused": "route refused",
    "already_routed": "nothing to route",
    "not_routed": "not routed",
    "checked": "check",
    "summary": "open connections",
    "panel": "panel",
    "no_kicad": "cannot reach KiCad",
    "kicad_too_old": "KiCad too old",
}


def runtime_dir():
    env = os.environ
    if env.get("TRACEMAKER_RUNTIME_DIR"):
        return env["TRACEMAKER_RUNTIME_DIR"]
    if env.get("XDG_RUNTIME_DIR"):
        return os.path.join(env["XDG_RUNTIME_DIR"], "tracemaker")
    return os.path.join(env.get("TMPDIR") or tempfile.gettempdir(), "tracemaker-%d" % os.getuid())


def log(line):
    # KiCad discards a plugin's output, so problems go to a file the README points to.
    try:
        d = runtime_dir()
        os.makedirs(d, mode=0o700, exist_ok=True)
        with open(os.path.join(d, "launcher.log"), "a") as f:
            f.write(line.rstrip() + "\n")
    except OSError:
        pass


def node_version(path):
    try:
        out = subprocess.run([path, "--version"], capture_output=True, text=True, timeout=10).stdout.strip()
        return int(out.lstrip("v").split(".")[0])
    except (OSError, ValueError, subprocess.SubprocessError):
        return 0


def find_node():
    # A desktop-started KiCad often has a short PATH, so look where Node is usually installed too.
    home = os.path.expanduser("~")
    candidates = [os.environ.get("TRACEMAKER_NODE"), shutil.which("node"),
                  "/usr/local/bin/node", "/usr/bin/node", "/opt/homebrew/bin/node",
                  os.path.join(home, ".volta", "bin", "node")]
    candidates += sorted(glob.glob(os.path.join(home, ".nvm", "versions", "node", "*", "bin", "node")), reverse=True)
    for c in candidates:
        if c and os.path.isfile(c) and node_version(c) >= 20:
            return c
    return None


def show(title, message, seconds):
    """Shows the result in a small window (wx if KiCad's Python has it, else a desktop notification)."""
    if os.environ.get("TRACEMAKER_NO_WINDOW") == "1":
        return
    try:
        import wx  # noqa: F401 (only probing)
        # A separate process, so this launcher exits at once and KiCad is never waiting on a window.
        subprocess.Popen([sys.executable, os.path.abspath(__file__), "--show", title, message, str(seconds)],
                         start_new_session=True, stdin=subprocess.DEVNULL,
                         stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        return
    except ImportError:
        pass
    notify = shutil.which("notify-send")
    if notify:
        subprocess.Popen([notify, "-t", str(seconds * 1000), title, message], start_new_session=True,
                         stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def window(title, message, seconds):
    import wx

    app = wx.App(False)
    frame = wx.Frame(None, title=title, style=wx.CAPTION | wx.CLOSE_BOX | wx.STAY_ON_TOP)
    panel = wx.Panel(frame)
    text = wx.StaticText(panel, label=message)
    text.Wrap(460)
    ok = wx.Button(panel, wx.ID_OK, "OK")
    ok.Bind(wx.EVT_BUTTON, lambda _e: frame.Close())
    sizer = wx.BoxSizer(wx.VERTICAL)
    sizer.Add(text, 0, wx.ALL, 14)
    sizer.Add(ok, 0, wx.ALIGN_RIGHT | wx.RIGHT | wx.BOTTOM, 10)
    panel.SetSizerAndFit(sizer)
    frame.Fit()
    frame.Centre()
    frame.Show()
    wx.CallLater(seconds * 1000, frame.Close)
    app.MainLoop()


def main(action):
    node = find_node()
    if node is None:
        msg = "TraceMaker needs Node.js 20 or later: install it, or set TRACEMAKER_NODE to its path."
        log(msg)
        show("TraceMaker: Node.js not found", msg, 20)
        return 1
    proc = subprocess.run([node, BUNDLE, "kicad", action, "--json"], capture_output=True, text=True, cwd=HERE)
    try:
        result = json.loads(proc.stdout.strip().splitlines()[-1])
    except (ValueError, IndexError):
        msg = "TraceMaker failed to run (exit %d): %s" % (proc.returncode, (proc.stderr or proc.stdout).strip()[-400:])
        log(msg)
        show("TraceMaker: failed", msg, 20)
        return 1
    if proc.stderr:
        log(proc.stderr)
    code = result.get("code", "failed")
    title = "TraceMaker: " + TITLES.get(code, code.replace("_", " "))
    show(title, result.get("message", ""), 6 if result.get("ok") else 15)
    return 0 if result.get("ok") else 1


if __name__ == "__main__":
    if len(sys.argv) == 5 and sys.argv[1] == "--show":
        window(sys.argv[2], sys.argv[3], int(sys.argv[4]))
    elif len(sys.argv) == 2:
        sys.exit(main(sys.argv[1]))
    else:
        sys.stderr.write("usage: tracemaker_launch.py route-selected|check|open-panel\n")
        sys.exit(2)
