/* MTOK_API marks what libmtok.so exports: the C API and the public C++
   classes. The library is built with hidden visibility, so nothing else is
   exported. The Python extension links its own copy of the core with
   MTOK_API defined empty, so there every symbol stays hidden. */
#ifndef MTOK_EXPORT_H_
#define MTOK_EXPORT_H_

#ifndef MTOK_API
#if defined(__GNUC__) || defined(__clang__)
#define MTOK_API __attribute__((visibility("default")))
#else
#define MTOK_API
#endif
#endif

#endif /* MTOK_EXPORT_H_ */
