import { Camera, Mail, Star } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';

import { Avatar } from '@/components/ui/avatar';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { countOf } from '@/lib/display';

import type { Profile } from '../api/types';
import { AVATAR_CONTENT_TYPES, useAvatarUpload } from '../api/upload-avatar';

type AvatarCardProps = {
  profile: Profile;
  onAvatarUpdated?: () => void;
};

/** The picture card: the avatar with its upload button, username, email and points. */
export function AvatarCard({ profile, onAvatarUpdated }: AvatarCardProps) {
  const inputRef = useRef<HTMLInputElement>(null);
  const { upload, progress, isUploading } = useAvatarUpload({ onUpdated: onAvatarUpdated });
  const [preview, setPreview] = useState<string | null>(null);
  const displayName = profile.name || profile.username;

  // The chosen picture shows while it uploads; its object URL is freed when it is replaced.
  useEffect(() => {
    if (!preview) return;
    return () => URL.revokeObjectURL(preview);
  }, [preview]);

  const onFileChosen = (file: File | undefined) => {
    if (!file) return;
    if (upload(file)) setPreview(URL.createObjectURL(file));
    // The same file can be chosen again after a failure.
    if (inputRef.current) inputRef.current.value = '';
  };

  const percent = progress === null ? null : Math.round(progress * 100);

  return (
    <Card className="overflow-hidden">
      <div className="h-20 bg-gradient-to-r from-primary to-purple" aria-hidden="true" />
      <div className="-mt-14 flex flex-col items-center px-5 pb-6 text-center">
        <div className="relative">
          <Avatar
            src={isUploading && preview ? preview : profile.avatarUrl}
            name={displayName}
            fallback="initials"
            size="xl"
            className="ring-4 ring-surface"
          />
          <button
            type="button"
            onClick={() => inputRef.current?.click()}
            disabled={isUploading}
            className="absolute right-0 bottom-0 flex size-9 items-center justify-center rounded-full border-2 border-surface bg-secondary text-secondary-foreground shadow hover:bg-secondary-hover disabled:opacity-60"
            aria-hidden="true"
            tabIndex={-1}
          >
            <Camera className="size-4" />
          </button>
        </div>
        <input
          ref={inputRef}
          id="avatar-file"
          type="file"
          accept={AVATAR_CONTENT_TYPES.join(',')}
          className="sr-only"
          tabIndex={-1}
          aria-hidden="true"
          onChange={(event) => onFileChosen(event.target.files?.[0])}
        />
        <h2 className="mt-3 text-xl font-bold break-words">{displayName}</h2>
        <p className="text-sm text-muted-foreground">@{profile.username}</p>
        <p className="mt-1 inline-flex max-w-full items-center gap-1.5 text-sm text-muted-foreground">
          <Mail className="size-4 shrink-0" aria-hidden="true" />
          <span className="truncate">{profile.email}</span>
        </p>
        <p className="mt-3 inline-flex items-center gap-1 rounded-full bg-secondary-soft px-3 py-1 text-sm font-semibold text-secondary">
          <Star className="size-4 fill-current" aria-hidden="true" />
          {countOf(profile.points, 'point')}
        </p>

        <Button
          variant="outline"
          className="mt-5 w-full"
          loading={isUploading}
          onClick={() => inputRef.current?.click()}
        >
          {!isUploading && <Camera aria-hidden="true" />}
          {isUploading ? 'Uploading...' : 'Upload photo'}
        </Button>
        {percent !== null && (
          <div className="mt-3 w-full">
            <div
              role="progressbar"
              aria-label="Upload progress"
              aria-valuemin={0}
              aria-valuemax={100}
              aria-valuenow={percent}
              className="h-2 w-full overflow-hidden rounded-full bg-muted"
            >
              <div
                className="h-full rounded-full bg-primary transition-[width] duration-200"
                style={{ width: `${percent}%` }}
              />
            </div>
            <p className="mt-1 text-xs text-muted-foreground tabular-nums">{percent}%</p>
          </div>
        )}
        <p className="mt-3 text-xs text-muted-foreground">PNG, JPEG, GIF or WebP, up to 5 MB.</p>
      </div>
    </Card>
  );
}
