#!/usr/bin/python3
"""Render beam snapshots to PNG without a GUI (VTK offscreen; run under xvfb-run on a headless machine).

usage:
  xvfb-run -a /usr/bin/python3 scripts/render.py RUN_DIR/beam.pvd [--time T | --last | --all]
                                                 [--scale S] [--out PNG] [--size W H]

Reads the .pvd series (its XML lists each snapshot's file and time), loads the chosen .vtu/.pvtu, warps
the mesh by the point data `displacement` (vtkWarpVector) and colours it by the cell data `von_mises`
with a scalar bar; the undeformed mesh is drawn as a grey wireframe for reference.

  --time T   the snapshot whose time is closest to T
  --last     the last snapshot (the default)
  --all      every snapshot, one PNG each (OUT_0000.png, OUT_0001.png, ...), for an animation, e.g.
             ffmpeg -i out/beam_%04d.png beam.mp4
  --scale S  warp factor; default: automatic, so that the largest displacement (over the rendered
             snapshots) is drawn as 10% of the beam length
  --out PNG  output file (default: next to the .pvd, <name>.png)

Exit status: 0 on success, 2 on bad input (missing file, no snapshot, unknown array).
"""
import argparse
import math
import os
import sys
import xml.etree.ElementTree as ET

import vtk


def fail(message):
    print(f"render.py: error: {message}", file=sys.stderr)
    sys.exit(2)


def read_series(pvd):
    """[(time, path)] from a ParaView collection file, in file order."""
    try:
        root = ET.parse(pvd).getroot()
    except (OSError, ET.ParseError) as e:
        fail(f"cannot read '{pvd}': {e}")
    base = os.path.dirname(os.path.abspath(pvd))
    series = []
    for ds in root.iter("DataSet"):
        f = ds.get("file")
        if f is None:
            continue
        series.append((float(ds.get("timestep", len(series))), os.path.join(base, f)))
    if not series:
        fail(f"'{pvd}' lists no snapshot")
    return series


def read_grid(path):
    if not os.path.exists(path):
        fail(f"snapshot '{path}' does not exist")
    extension = os.path.splitext(path)[1].lower()  # a series renamed by hand may say .VTU
    if extension not in (".vtu", ".pvtu"):
        # The particle and multibody labs write PolyData (.vtp/.pvtp): no displacement, no von Mises.
        fail(f"snapshot '{path}' is not a beam snapshot (.vtu or .pvtu); open particle and body series in ParaView")
    reader = vtk.vtkXMLPUnstructuredGridReader() if extension == ".pvtu" else vtk.vtkXMLUnstructuredGridReader()
    reader.SetFileName(path)
    reader.Update()
    grid = reader.GetOutput()
    if grid.GetNumberOfPoints() == 0:
        fail(f"snapshot '{path}' has no points")
    for where, data, name in (("point", grid.GetPointData(), "displacement"), ("cell", grid.GetCellData(), "von_mises")):
        if data.GetArray(name) is None:
            fail(f"snapshot '{path}' has no {where} array '{name}'")
    return grid


def max_displacement(grid):
    d = grid.GetPointData().GetArray("displacement")
    return max((math.sqrt(sum(c * c for c in d.GetTuple3(i))) for i in range(d.GetNumberOfTuples())), default=0.0)


def beam_length(grid):
    x0, x1, y0, y1, _, _ = grid.GetBounds()
    return max(x1 - x0, y1 - y0)


def render(grid, scale, time, png, size, stress_range):
    warp = vtk.vtkWarpVector()
    warp.SetInputData(grid)
    warp.SetInputArrayToProcess(0, 0, 0, vtk.vtkDataObject.FIELD_ASSOCIATION_POINTS, "displacement")
    warp.SetScaleFactor(scale)

    lut = vtk.vtkLookupTable()
    lut.SetHueRange(0.667, 0.0)  # blue (low) to red (high)
    lut.Build()
    mapper = vtk.vtkDataSetMapper()
    mapper.SetInputConnection(warp.GetOutputPort())
    mapper.SetScalarModeToUseCellFieldData()
    mapper.SelectColorArray("von_mises")
    mapper.SetLookupTable(lut)
    mapper.SetScalarRange(*stress_range)
    mapper.ScalarVisibilityOn()
    deformed = vtk.vtkActor()
    deformed.SetMapper(mapper)
    deformed.GetProperty().EdgeVisibilityOn()
    deformed.GetProperty().SetEdgeColor(0.2, 0.2, 0.2)

    outline_mapper = vtk.vtkDataSetMapper()
    outline_mapper.SetInputData(grid)
    outline_mapper.ScalarVisibilityOff()
    undeformed = vtk.vtkActor()
    undeformed.SetMapper(outline_mapper)
    undeformed.GetProperty().SetRepresentationToWireframe()
    undeformed.GetProperty().SetColor(0.7, 0.7, 0.7)

    bar = vtk.vtkScalarBarActor()
    bar.SetLookupTable(lut)
    bar.SetTitle("von Mises")
    bar.SetNumberOfLabels(5)
    bar.SetOrientationToHorizontal()
    bar.SetPosition(0.2, 0.03)
    bar.SetWidth(0.6)
    bar.SetHeight(0.12)
    for prop in (bar.GetTitleTextProperty(), bar.GetLabelTextProperty()):
        prop.SetColor(0, 0, 0)

    label = vtk.vtkTextActor()
    label.SetInput(f"t = {time:g}   warp x{scale:.3g}")
    label.GetTextProperty().SetColor(0, 0, 0)
    label.GetTextProperty().SetFontSize(18)
    label.SetDisplayPosition(10, size[1] - 30)

    renderer = vtk.vtkRenderer()
    renderer.SetBackground(1, 1, 1)
    renderer.AddActor(undeformed)
    renderer.AddActor(deformed)
    renderer.AddActor2D(bar)
    renderer.AddActor2D(label)
    window = vtk.vtkRenderWindow()
    window.SetOffScreenRendering(1)
    window.SetSize(*size)
    window.AddRenderer(renderer)
    camera = renderer.GetActiveCamera()
    camera.ParallelProjectionOn()
    renderer.ResetCamera()
    camera.Zoom(1.3)
    window.Render()

    image = vtk.vtkWindowToImageFilter()
    image.SetInput(window)
    image.ReadFrontBufferOff()
    image.Update()
    writer = vtk.vtkPNGWriter()
    writer.SetFileName(png)
    writer.SetInputConnection(image.GetOutputPort())
    writer.Write()
    window.Finalize()
    print(f"wrote {png}")


def main():
    parser = argparse.ArgumentParser(description="Render beam snapshots (.pvd series) to PNG offscreen.")
    parser.add_argument("pvd", help="the run's .pvd file, e.g. out/midpoint/beam.pvd")
    which = parser.add_mutually_exclusive_group()
    which.add_argument("--time", type=float, help="render the snapshot closest to this time")
    which.add_argument("--last", action="store_true", help="render the last snapshot (default)")
    which.add_argument("--all", action="store_true", help="render every snapshot, one PNG each")
    parser.add_argument("--scale", type=float, help="warp factor (default: largest displacement = 10%% of the length)")
    parser.add_argument("--out", help="output PNG (with --all: the prefix OUT_NNNN.png)")
    parser.add_argument("--size", type=int, nargs=2, default=(1200, 500), metavar=("W", "H"))
    args = parser.parse_args()
    if args.scale is not None and not (math.isfinite(args.scale) and args.scale >= 0):
        fail(f"--scale: {args.scale} is out of range; accepted: a real >= 0")
    if min(args.size) < 16:
        fail(f"--size: {args.size} is too small; accepted: W, H >= 16")

    series = read_series(args.pvd)
    if args.all:
        chosen = series
    elif args.time is not None:
        chosen = [min(series, key=lambda s: abs(s[0] - args.time))]
    else:
        chosen = [series[-1]]
    grids = [(t, read_grid(path)) for t, path in chosen]

    scale = args.scale
    if scale is None:  # one scale for the whole set, so an animation does not rescale between frames
        largest = max(max_displacement(g) for _, g in grids)
        scale = 0.1 * beam_length(grids[0][1]) / largest if largest > 0 else 1.0
    stress = [g.GetCellData().GetArray("von_mises").GetRange() for _, g in grids]
    low, high = min(r[0] for r in stress), max(r[1] for r in stress)
    if high <= low:
        high = low + 1.0  # a uniform field (e.g. at rest) still gets a valid colour range

    stem = os.path.splitext(args.pvd)[0]
    out = args.out or stem + ".png"
    out_dir = os.path.dirname(os.path.abspath(out))
    if not os.path.isdir(out_dir):
        fail(f"--out: directory '{out_dir}' does not exist")
    for k, (t, grid) in enumerate(grids):
        png = f"{os.path.splitext(out)[0]}_{k:04d}.png" if args.all else out
        render(grid, scale, t, png, tuple(args.size), (low, high))


if __name__ == "__main__":
    main()
