// Python ints for token ids, made once per id and shared by every list of
// ids a tokenizer returns: a vocabulary is small and its ids repeat, so a
// list costs one reference increment per token instead of an allocation.
// Used with the GIL held; freed with the tokenizer's Python object.
#pragma once
#include <nanobind/nanobind.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <new>
#include <vector>

#include "mtok/memory.h"

namespace mtok_py {

class IdObjects {
 public:
  // `expected`: how many ids the tokenizer has. The table is sized for
  // them at once, from zero pages nobody touched yet: growing a vector by
  // steps copied and faulted in about three times the final table during
  // a first encode. A large table sits on a 2 MB page, backed here (at
  // load) rather than at the first encode's first id: one page for the
  // kernel to clear instead of one fault per 4 KB (llama3: 1 instead of
  // ~250, a tenth of a millisecond or more).
  explicit IdObjects(size_t expected) {
    if (expected * sizeof(PyObject*) >= kHugeTable && huge_.Allocate(expected * sizeof(PyObject*))) {
      huge_.Populate();
      objs_ = reinterpret_cast<PyObject**>(huge_.data());
      size_ = expected;
    } else {
      Grow(expected > 0 ? expected : 1);
    }
  }
  IdObjects(const IdObjects&) = delete;
  IdObjects& operator=(const IdObjects&) = delete;
  ~IdObjects() {
    for (size_t i = 0; i < size_; ++i) Py_XDECREF(objs_[i]);
    if (!OnHugePages()) std::free(objs_);
  }

  nanobind::list List(const std::vector<uint32_t>& ids) {
    const size_t n = ids.size();
    PyObject* list = PyList_New(static_cast<Py_ssize_t>(n));
    if (list == nullptr) throw nanobind::python_error();
    PyObject** items = reinterpret_cast<PyListObject*>(list)->ob_item;
    const uint32_t* id = ids.data();
    size_t i = 0;
    // Two random reads per token (the table entry, then the object's
    // refcount) miss the cache when other work ran in between: fetch the
    // entry 32 tokens ahead and the object 16 ahead. The ids ahead exist in
    // this loop, so it checks no bounds on i; an id past the table fetches
    // its last entry, and an id without its object yet fetches address 0,
    // both harmless (a branch on them would be mispredicted at every
    // first-seen id of a fresh tokenizer).
    // The table in locals: the compiler cannot tell that the stores into
    // the list and the reference counts leave objs_ and size_ alone, and
    // reloaded both for every id. Only Get (a first-seen id) changes them.
    PyObject** objs = objs_;
    size_t size = size_;
    for (; i + 32 < n; ++i) {
      const auto last = static_cast<uint32_t>(size - 1);  // size_ <= 2^32
      __builtin_prefetch(&objs[std::min(id[i + 32], last)]);
      __builtin_prefetch(objs[std::min(id[i + 16], last)], 1);
      if (!Put(id[i], items + i, &objs, &size)) return Fail(list);
    }
    for (; i < n; ++i) {
      if (!Put(id[i], items + i, &objs, &size)) return Fail(list);
    }
    return nanobind::steal<nanobind::list>(list);
  }

 private:
  // Stores a new reference to id's object at *item; false (a Python error
  // set) when it cannot be made. Hot: an id seen before is one load.
  // *objs and *size are the caller's copies of the table, updated when Get
  // grows it.
  [[gnu::always_inline]] bool Put(uint32_t id, PyObject** item, PyObject*** objs, size_t* size) {
    PyObject* o = id < *size ? (*objs)[id] : nullptr;
    if (o == nullptr) {
      if ((o = Get(id)) == nullptr) return false;
      *objs = objs_;
      *size = size_;
    }
    Py_INCREF(o);
    *item = o;
    return true;
  }
  [[noreturn]] static nanobind::list Fail(PyObject* list) {
    Py_DECREF(list);  // its unset items are null, which the list skips
    throw nanobind::python_error();
  }

  PyObject* Get(uint32_t id) {
    if (id >= size_) Grow(std::min(static_cast<size_t>(id) + 1 + size_ / 2, size_t{1} << 32));
    PyObject*& slot = objs_[id];
    if (slot == nullptr) slot = PyLong_FromUnsignedLong(id);
    return slot;
  }

  // An id past the vocabulary (added tokens) moves the table to the heap.
  void Grow(size_t n) {
    auto* grown = static_cast<PyObject**>(std::calloc(n, sizeof(PyObject*)));
    if (grown == nullptr) throw std::bad_alloc();
    if (size_ > 0) std::memcpy(grown, objs_, size_ * sizeof(PyObject*));
    if (!OnHugePages()) std::free(objs_);
    objs_ = grown;
    size_ = n;
  }
  bool OnHugePages() const {
    return huge_.data() != nullptr && objs_ == reinterpret_cast<PyObject**>(huge_.data());
  }

  static constexpr size_t kHugeTable = size_t{512} << 10;
  mtok::HugePageRegion huge_;  // the table when it is large (kept after a Grow, unused)
  PyObject** objs_ = nullptr;  // size_ entries; null until that id is first returned
  size_t size_ = 0;
};

}  // namespace mtok_py
