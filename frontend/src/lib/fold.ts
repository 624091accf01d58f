/** Letters Unicode does not decompose into a base letter and an accent, spelled as the server
 * spells them (project/common/text.py). */
const SPELLED: Record<string, string> = {
  ł: 'l',
  ø: 'o',
  đ: 'd',
  ħ: 'h',
  ı: 'i',
  æ: 'ae',
  œ: 'oe',
  þ: 'th',
  ß: 'ss',
};

const bare = (text: string) => text.normalize('NFKD').replace(/\p{M}/gu, '');

/**
 * Text as the server's search compares it: lower-cased, accent-folded words (letters and digits)
 * joined by single spaces, apostrophes joining a word. "Zoë Müller-Ñúñez" and "ZOE MULLER NUNEZ"
 * both give "zoe muller nunez". A symbol (Unicode's "other symbol": an emoji such as "⚽") is a
 * word of its own, so a search for it finds it; skin tones and variation selectors are left out.
 */
export function fold(text: string): string {
  const letters = bare(bare(text).toLowerCase())
    .replace(/['\u2019\u02bc]/gu, '')
    .replace(/[łøđħıæœþß]/gu, (letter) => SPELLED[letter] ?? letter);
  return (letters.match(/[\p{L}\p{N}]+|\p{So}/gu) ?? []).join(' ');
}
