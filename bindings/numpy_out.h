// Numpy arrays over native vectors: the array owns the vector (moved to the
// heap, freed with the array), so no per-id Python object and no copy.
#pragma once
#include <nanobind/nanobind.h>
#include <nanobind/ndarray.h>

#include <initializer_list>
#include <vector>

namespace mtok_py {

template <typename T>
nanobind::object ToNumpy(std::vector<T>&& data, std::initializer_list<size_t> shape) {
  auto* heap = new std::vector<T>(std::move(data));
  nanobind::capsule owner(heap, [](void* p) noexcept { delete static_cast<std::vector<T>*>(p); });
  std::vector<size_t> dims(shape);
  return nanobind::cast(nanobind::ndarray<nanobind::numpy, T>(heap->data(), dims.size(), dims.data(), owner));
}

}  // namespace mtok_py
