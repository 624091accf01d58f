/** The id of a field's error message, for the control's aria-describedby. */
export function fieldErrorId(id: string) {
  return `${id}-error`;
}
