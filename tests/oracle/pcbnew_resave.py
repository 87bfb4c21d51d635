"""Loads each board with pcbnew and saves it again, as a user's Ctrl+S in KiCad would.

    /usr/bin/python3 pcbnew_resave.py IN.kicad_pcb OUT.kicad_pcb [IN2 OUT2 ...]
Prints one line a board: the path written. Only the .kicad_pcb is wanted; the project files
pcbnew writes beside it are left to the caller's temp folder.
"""
import sys

import pcbnew

args = sys.argv[1:]
if len(args) % 2:
    sys.exit('pcbnew_resave.py expects pairs: IN.kicad_pcb OUT.kicad_pcb ...')
for src, dst in zip(args[0::2], args[1::2]):
    board = pcbnew.LoadBoard(src)
    if board is None:
        sys.exit('pcbnew could not load %s' % src)
    pcbnew.SaveBoard(dst, board)
    print(dst, flush=True)
