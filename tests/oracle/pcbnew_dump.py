"""Dumps what KiCad's own pcbnew reads from a board, as JSON, for comparing the engine's reader.

    /usr/bin/python3 pcbnew_dump.py BOARD.kicad_pcb  ->  {"pads": [...], "tracks": n, ...}
Coordinates in nm, angles in degrees, as pcbnew reports them. Runs under KiCad 9's and KiCad 10's
pcbnew alike: nets are listed by name, since KiCad 10 files carry no net codes (the codes pcbnew
gives them are its own numbering).
"""
import json
import sys

import pcbnew

b = pcbnew.LoadBoard(sys.argv[1])
pads = []
for fp in b.GetFootprints():
    ref = fp.GetReference()
    for p in fp.Pads():
        pos = p.GetPosition()
        size = p.GetSize(pcbnew.F_Cu) if hasattr(p, 'GetSize') else p.GetSize()
        pads.append({
            'ref': ref, 'number': p.GetNumber(), 'x': pos.x, 'y': pos.y,
            'rot': round(p.GetOrientation().AsDegrees(), 6), 'w': size.x, 'h': size.y,
            'net': p.GetNetname(), 'drill': p.GetDrillSize().x,
        })
nets = sorted(str(name) for name in b.GetNetsByName().keys())
tracks = [t for t in b.GetTracks()]
n_via = sum(1 for t in tracks if t.GetClass() == 'PCB_VIA')
n_arc = sum(1 for t in tracks if t.GetClass() == 'PCB_ARC')
print(json.dumps({
    'pads': pads, 'nets': nets, 'vias': n_via, 'arcs': n_arc, 'segments': len(tracks) - n_via - n_arc,
    'zones': len(list(b.Zones())) + sum(len(list(fp.Zones())) for fp in b.GetFootprints()),
    'copper_layers': b.GetCopperLayerCount(),
}))
