// Python ints for token ids, made once per id and shared by every list of
// ids a tokenizer returns: a vocabulary is small and its ids repeat, so a
// list costs one reference increment per token instead of an allocation.
// Used with the GIL held; freed with the tokenizer's Python object.
#pragma once
#include <nanobind/nanobind.h>

#include <cstdint>
#include <vector>

namespace mtok_py {

class IdObjects {
 public:
  IdObjects() = default;
  IdObjects(const IdObjects&) = delete;
  IdObjects& operator=(const IdObjects&) = delete;
  ~IdObjects() {
    for (PyObject* o : objs_) Py_XDECREF(o);
  }

  nanobind::list List(const std::vector<uint32_t>& ids) {
    PyObject* list = PyList_New(static_cast<Py_ssize_t>(ids.size()));
    if (list == nullptr) throw nanobind::python_error();
    PyObject** items = reinterpret_cast<PyListObject*>(list)->ob_item;
    const size_t n = ids.size(), known = objs_.size();
    for (size_t i = 0; i < n; ++i) {
      // Two random reads per token (the table entry, then the object's
      // refcount) miss the cache when other work ran in between: fetch the
      // entry 32 tokens ahead and the object 16 ahead.
      if (i + 32 < n && ids[i + 32] < known) __builtin_prefetch(&objs_[ids[i + 32]]);
      if (i + 16 < n && ids[i + 16] < known && objs_[ids[i + 16]] != nullptr)
        __builtin_prefetch(objs_[ids[i + 16]], 1);
      const uint32_t id = ids[i];
      // Hot loop: an id seen before is one load; Get makes the others.
      PyObject* o = id < objs_.size() ? objs_[id] : nullptr;
      if (o == nullptr && (o = Get(id)) == nullptr) {
        Py_DECREF(list);
        throw nanobind::python_error();
      }
      Py_INCREF(o);
      items[i] = o;
    }
    return nanobind::steal<nanobind::list>(list);
  }

 private:
  PyObject* Get(uint32_t id) {
    if (id >= objs_.size()) objs_.resize(static_cast<size_t>(id) + 1 + objs_.size() / 2, nullptr);
    PyObject*& slot = objs_[id];
    if (slot == nullptr) slot = PyLong_FromUnsignedLong(id);
    return slot;
  }

  std::vector<PyObject*> objs_;
};

}  // namespace mtok_py
