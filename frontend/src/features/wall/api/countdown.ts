const pad = (value: number) => String(value).padStart(2, '0');

/** A time left as a wall shows it: "2d 04:13:22", "04:13:22"; "00:00:00" once it has passed. */
export function formatCountdown(milliseconds: number): string {
  const total = Math.max(0, Math.floor(milliseconds / 1000));
  const days = Math.floor(total / 86_400);
  const clock = `${pad(Math.floor(total / 3600) % 24)}:${pad(Math.floor(total / 60) % 60)}:${pad(total % 60)}`;
  return days > 0 ? `${days}d ${clock}` : clock;
}
