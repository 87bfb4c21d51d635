# KiCad runs this for the "open-panel" action with its venv's python (no exec bit needed).
import tracemaker_launch

raise SystemExit(tracemaker_launch.main("open-panel"))
