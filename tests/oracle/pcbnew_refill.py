"""Refills every zone of a board with pcbnew's zone filler, as KiCad does before manufacturing.

    python3 pcbnew_refill.py IN.kicad_pcb OUT.kicad_pcb
The rules come from the project beside IN (same stem). Prints the path written.
"""
import sys

import pcbnew

if len(sys.argv) != 3:
    sys.exit('pcbnew_refill.py expects IN.kicad_pcb OUT.kicad_pcb')
src, dst = sys.argv[1:]
board = pcbnew.LoadBoard(src)
if board is None:
    sys.exit('pcbnew could not load %s' % src)
# The filler crashes on a board without zones; such a board needs no refill.
if list(board.Zones()):
    pcbnew.ZONE_FILLER(board).Fill(board.Zones())
pcbnew.SaveBoard(dst, board)
print(dst, flush=True)
