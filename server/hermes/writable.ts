// `T` with its fields writable: what the engine fills in and updates in place where making a new
// object per session and evaluation would cost (reports kept between evaluations, one scratch
// object reused for thousands of sessions). Everywhere else the shapes stay readonly.
export type Writable<T> = { -readonly [K in keyof T]: T[K] };
