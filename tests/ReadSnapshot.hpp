// Reads a snapshot back through VTK, as ParaView would: a .vtu, or a .pvtu with all its pieces.
#pragma once
#include <vtkNew.h>
#include <vtkSmartPointer.h>
#include <vtkUnstructuredGrid.h>
#include <vtkXMLPUnstructuredGridReader.h>
#include <vtkXMLUnstructuredGridReader.h>

#include <string>

inline vtkSmartPointer<vtkUnstructuredGrid> readSnapshot(const std::string &path) {
  vtkSmartPointer<vtkUnstructuredGrid> out;
  if (path.size() > 5 && path.substr(path.size() - 5) == ".pvtu") {
    vtkNew<vtkXMLPUnstructuredGridReader> reader;
    reader->SetFileName(path.c_str());
    reader->Update();
    out = reader->GetOutput();
  } else {
    vtkNew<vtkXMLUnstructuredGridReader> reader;
    reader->SetFileName(path.c_str());
    reader->Update();
    out = reader->GetOutput();
  }
  return out;
}
