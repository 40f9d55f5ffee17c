// NumPy's C API is used here only: its function table is this file's own
// (no PY_ARRAY_UNIQUE_SYMBOL), filled at the first IdsArray call.
#define NPY_NO_DEPRECATED_API NPY_1_7_API_VERSION
#include <numpy/arrayobject.h>

#include <cstring>

#include "numpy_out.h"

namespace nb = nanobind;

namespace mtok_py {

nb::object IdsArray(const std::vector<uint32_t>& ids) {
  // Imports numpy once; a failed import raises here and is tried again at
  // the next call.
  static const bool numpy_ready = [] {
    if (PyArray_ImportNumPyAPI() < 0) throw nb::python_error();
    return true;
  }();
  (void)numpy_ready;
  npy_intp n = static_cast<npy_intp>(ids.size());
  PyObject* array = PyArray_SimpleNew(1, &n, NPY_UINT32);
  if (array == nullptr) throw nb::python_error();
  if (n > 0) std::memcpy(PyArray_DATA(reinterpret_cast<PyArrayObject*>(array)), ids.data(), ids.size() * sizeof(uint32_t));
  return nb::steal(array);
}

}  // namespace mtok_py
