// V8 keeps a slice of 13 characters or more as a view of the string it was cut from: a model name
// cut from a 40 kB stored prompt holds the whole prompt alive for as long as the name is kept.
// Values kept past the prompt's own analysis (a report's model, a verdict's facts) are copied out.

/** `text` with storage of its own, never a view of a longer string. */
export function ownCopy(text: string): string {
  // Joining makes a two-part string; slicing it flattens the two into a new string of their own.
  return text.length < 13 ? text : (' ' + text).slice(1);
}
