#!/usr/bin/env bash
# Offscreen rendering end to end: a small midpoint run, scripts/render.py on its last snapshot under
# xvfb-run, and a check that the PNG is a real picture (not blank, not one flat colour).
# usage: render_png_test.sh MIDPOINT_BINARY RENDER_SCRIPT WORK_DIR
# A missing xvfb-run is a failure, not a skip: the rendering path must be tested on every machine that
# runs the suite (scripts/setup-debian.sh installs xvfb).
set -euo pipefail
midpoint=$1 render=$2 work=$3
python=/usr/bin/python3
command -v xvfb-run >/dev/null || { echo "render_png: FAIL: xvfb-run not found; install xvfb (scripts/setup-debian.sh)"; exit 1; }
[ -x "$python" ] || { echo "render_png: FAIL: $python not found"; exit 1; }
"$python" -c "import vtk" 2>/dev/null || { echo "render_png: FAIL: VTK's Python bindings missing; install python3-vtk9"; exit 1; }

rm -rf "$work"
mkdir -p "$work"
"$midpoint" -mx 8 -my 2 -T 1 -output_dir "$work/run" -quiet > "$work/midpoint.log"
xvfb-run -a "$python" "$render" "$work/run/beam.pvd" --last --out "$work/last.png"

# A particle series (PolyData) is refused by name, exit 2 (it said "has no points" until 2026-11-28).
mkdir -p "$work/particles"
: > "$work/particles/mass_spring_000000.vtp"
printf '<?xml version="1.0"?>\n<VTKFile type="Collection"><Collection>\n<DataSet timestep="0" file="mass_spring_000000.vtp"/>\n</Collection></VTKFile>\n' > "$work/particles/mass_spring.pvd"
set +e
"$python" "$render" "$work/particles/mass_spring.pvd" --last --out "$work/particles.png" 2> "$work/particles.err"
status=$?
set -e
[ "$status" -eq 2 ] && grep -q "is not a beam snapshot (.vtu or .pvtu)" "$work/particles.err" ||
  { echo "render_png: FAIL: a .vtp series gave exit $status: $(cat "$work/particles.err")"; exit 1; }

# An upper-case extension (a series renamed by hand) is read as what it is (refused as "not a beam
# snapshot" until 2026-11-28).
mkdir -p "$work/upper"
cp "$(ls "$work"/run/beam_*.vtu | sort | tail -1)" "$work/upper/BEAM_LAST.VTU"
printf '<?xml version="1.0"?>\n<VTKFile type="Collection"><Collection>\n<DataSet timestep="1" file="BEAM_LAST.VTU"/>\n</Collection></VTKFile>\n' > "$work/upper/beam.pvd"
xvfb-run -a "$python" "$render" "$work/upper/beam.pvd" --last --out "$work/upper.png" > "$work/upper.log" 2>&1 ||
  { echo "render_png: FAIL: an upper-case .VTU was refused: $(cat "$work/upper.log")"; exit 1; }
[ -s "$work/upper.png" ] || { echo "render_png: FAIL: no PNG from the upper-case .VTU"; exit 1; }

# Not blank: many distinct colours (the von Mises map) and a real share of non-background pixels.
"$python" - "$work/last.png" <<'PY'
import sys
import vtk
from vtk.util.numpy_support import vtk_to_numpy

reader = vtk.vtkPNGReader()
reader.SetFileName(sys.argv[1])
reader.Update()
image = reader.GetOutput()
w, h, _ = image.GetDimensions()
pixels = vtk_to_numpy(image.GetPointData().GetScalars())[:, :3]
colours = {tuple(p) for p in pixels}
background = (pixels == 255).all(axis=1)
share = 1.0 - background.mean()
print(f"render_png: {w}x{h}, {len(colours)} distinct colours, {100 * share:.1f}% non-background")
if len(colours) < 50 or share < 0.05:
    sys.exit("render_png: FAIL: the image looks blank")
print("render_png: OK")
PY
