import { isSport, sportOption } from '@/stores/sport';

/** A sport value as people read it: "Football", "Track and field". Empty for no sport. */
export function sportLabel(value: string | null | undefined): string {
  if (!value) return '';
  if (isSport(value)) return sportOption(value).label;
  const words = value.replaceAll('_', ' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
}
