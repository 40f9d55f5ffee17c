// Numpy arrays of native results.
#pragma once
#include <nanobind/nanobind.h>
#include <nanobind/ndarray.h>

#include <cstdint>
#include <initializer_list>
#include <vector>

namespace mtok_py {

// An array that owns `data` (moved to the heap, freed with the array): no
// copy, for a batch's large arrays (nanobind's cast is slow beside a short
// text's encode, not beside a batch's).
template <typename T>
nanobind::object ToNumpy(std::vector<T>&& data, std::initializer_list<size_t> shape) {
  auto* heap = new std::vector<T>(std::move(data));
  nanobind::capsule owner(heap, [](void* p) noexcept { delete static_cast<std::vector<T>*>(p); });
  std::vector<size_t> dims(shape);
  return nanobind::cast(nanobind::ndarray<nanobind::numpy, T>(heap->data(), dims.size(), dims.data(), owner));
}

// A 1-D uint32 array of `ids`, made with NumPy's C API and one copy: a
// short text's encode is then not dwarfed by making its array, as with
// ToNumpy's cast (bench/README.md, 2026-12-04) or numpy.frombuffer over a
// bytearray (2026-12-07). Writable; numpy is imported at the first call.
nanobind::object IdsArray(const std::vector<uint32_t>& ids);

}  // namespace mtok_py
