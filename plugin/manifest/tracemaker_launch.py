# The Python side of the KiCad plugin: KiCad's python runtime runs an action script, which calls main().
# It finds Node (the package's own runtime first), runs the bundled `tracemaker kicad ACTION --json` with
# KiCad's environment, and shows the one-line result in a small window that closes itself. Standard library
# only, plus wx when KiCad's Python has it; Windows, macOS and Linux alike. Everything else happens in Node.
import glob
import json
import os
import platform
import shutil
import stat
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
BUNDLE = os.path.join(HERE, "tracemaker.js")
MIN_NODE = 20
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


def show(title, message, seconds):
    """Shows the result where the user sees it: a small wx window if KiCad's Python has wx, else the
    platform's own dialog (Windows message box, macOS dialog, Linux notification)."""
    if os.environ.get("TRACEMAKER_NO_WINDOW") == "1":
        return
    try:
        import wx  # noqa: F401 (only probing)
        has_wx = True
    except ImportError:
        has_wx = False
    quiet = dict(stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    if sys.platform.startswith("win"):
        # A separate process (wx or a message box), so this launcher returns and KiCad is never waiting.
        subprocess.Popen([sys.executable, os.path.abspath(__file__), "--show", title, message, str(seconds)],
                         creationflags=DETACHED | NO_WINDOW, **quiet)
        return
    if has_wx:
        subprocess.Popen([sys.executable, os.path.abspath(__file__), "--show", title, message, str(seconds)],
                         start_new_session=True, **quiet)
        return
    if sys.platform == "darwin":
        script = 'display dialog %s with title %s buttons {"OK"} default button "OK" giving up after %d' % (
            applescript_text(message), applescript_text(title), seconds)
        subprocess.Popen(["/usr/bin/osascript", "-e", script], start_new_session=True, **quiet)
        return
    for cmd in (["notify-send", "-t", str(seconds * 1000), title, message],
                ["zenity", "--info", "--title", title, "--text", message, "--timeout", str(seconds)],
                ["kdialog", "--title", title, "--passivepopup", message, str(seconds)]):
        if shutil.which(cmd[0]):
            subprocess.Popen(cmd, start_new_session=True, **quiet)
            return


def applescript_text(s):
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"') + '"'


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


def run(action):
    node = find_node()
    if node is None:
        log(NEED_NODE)
        show("TraceMaker: Node.js not found", NEED_NODE, 30)
        return 1
    proc = subprocess.run([node, BUNDLE, "kicad", action, "--json"], capture_output=True, encoding="utf-8",
                          errors="replace", cwd=HERE, creationflags=NO_WINDOW)
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


def main(action):
    # Whatever goes wrong here, the user hears of it: KiCad shows nothing of a plugin that failed.
    try:
        return run(action)
    except Exception as e:  # noqa: BLE001
        msg = "TraceMaker failed: %s: %s (log: %s)" % (type(e).__name__, e, os.path.join(runtime_dir(), "launcher.log"))
        log(msg)
        try:
            show("TraceMaker: failed", msg, 20)
        except Exception as e2:  # noqa: BLE001
            log("could not show the failure: %s" % e2)
        return 1


if __name__ == "__main__":
    if len(sys.argv) == 5 and sys.argv[1] == "--show":
        window(sys.argv[2], sys.argv[3], int(sys.argv[4]))
    elif len(sys.argv) == 2:
        sys.exit(main(sys.argv[1]))
    else:
        sys.stderr.write("usage: tracemaker_launch.py route-selected|check|open-panel\n")
        sys.exit(2)
