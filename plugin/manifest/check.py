# KiCad runs this for the "check" action with its venv's python (no exec bit needed).
import tracemaker_launch

raise SystemExit(tracemaker_launch.main("check"))
