#pragma once

namespace redlock {

// A watching process builds and drops large buffers over and over: a full pass's views of every lock, the
// change set handed to the table, its slices. glibc raises its mmap threshold each time it frees such a
// buffer, so the next large ones come from the heap, where they stay resident after they are freed
// (bench-console, 100,000 locks: RSS 267 MB with the dynamic threshold, 231 MB with it fixed). A fixed
// threshold keeps large buffers in their own mappings, given back to the system when freed.
// Call once at start-up, before other threads start. Does nothing where the C library is not glibc.
void keepLargeBuffersReturnable();

} // namespace redlock
