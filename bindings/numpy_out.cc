#include "numpy_out.h"

namespace nb = nanobind;

namespace mtok_py {

nb::object IdsArray(const std::vector<uint32_t>& ids) {
  // numpy.frombuffer and dtype("uint32"), looked up once and kept for the
  // life of the process (never released: a static object's destructor
  // would run after the interpreter is gone).
  struct Numpy {
    PyObject* frombuffer;
    PyObject* uint32;
  };
  static const Numpy np = [] {
    nb::module_ m = nb::module_::import_("numpy");
    return Numpy{nb::object(m.attr("frombuffer")).release().ptr(),
                 nb::object(m.attr("dtype")("uint32")).release().ptr()};
  }();
  nb::object bytes = nb::steal(PyByteArray_FromStringAndSize(reinterpret_cast<const char*>(ids.data()),
                                                             static_cast<Py_ssize_t>(ids.size() * sizeof(uint32_t))));
  if (!bytes.is_valid()) throw nb::python_error();
  PyObject* array = PyObject_CallFunctionObjArgs(np.frombuffer, bytes.ptr(), np.uint32, nullptr);
  if (array == nullptr) throw nb::python_error();
  return nb::steal(array);
}

}  // namespace mtok_py
