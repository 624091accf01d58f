import { useState } from 'react';

import { initials } from '@/lib/display';
import { cn } from '@/lib/utils';

const sizes = {
  sm: 'size-9 text-sm',
  md: 'size-12 text-lg',
  lg: 'size-20 text-2xl',
  xl: 'size-28 text-4xl',
} as const;

export type AvatarSize = keyof typeof sizes;

type AvatarProps = {
  /** The picture's address; the letters show when it is missing or fails to load. */
  src?: string | null;
  /** Whose picture it is: names the image and gives the fallback letters. */
  name: string;
  /** Without a picture: the name's first letter, or its initials (first and last word). */
  fallback?: 'initial' | 'initials';
  size?: AvatarSize;
  className?: string;
};

function firstLetter(name: string): string {
  const letter = Array.from(name.trim())[0];
  return letter ? letter.toUpperCase() : '?';
}

/** A round profile picture with a lettered fallback. */
export function Avatar({ src, name, fallback = 'initial', size = 'md', className }: AvatarProps) {
  const [failedSrc, setFailedSrc] = useState<string | null>(null);
  const picture = src && src !== failedSrc ? src : null;

  return (
    <span
      className={cn(
        'relative inline-flex shrink-0 items-center justify-center overflow-hidden rounded-full bg-primary font-bold text-primary-foreground select-none',
        sizes[size],
        className,
      )}
    >
      {picture ? (
        <img
          src={picture}
          alt={name}
          className="size-full object-cover"
          onError={() => setFailedSrc(picture)}
        />
      ) : (
        <span aria-hidden="true">
          {fallback === 'initials' ? initials(name) : firstLetter(name)}
        </span>
      )}
    </span>
  );
}
