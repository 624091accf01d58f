import { useRef, useState, type FormEvent } from 'react';

import { Button } from '@/components/ui/button';
import { Field } from '@/components/ui/field';
import { Input, Textarea } from '@/components/ui/input';
import { IMAGE_CONTENT_TYPES } from '@/lib/upload-file';

import { useCreateUpdate } from '../api/updates';

const TITLE_REQUIRED = 'Give the update a title';
const ONE_MEDIA = 'Add a picture or a video link, not both';

/**
 * The claimant's or a verified coach's form for a new update: a title, text, a picture or a
 * YouTube, Vimeo or Hudl link, and the milestone flag. A picture or a link waits for review.
 */
export function UpdateForm({ playerId, onDone }: { playerId: number; onDone: () => void }) {
  const create = useCreateUpdate(playerId);
  const [title, setTitle] = useState('');
  const [content, setContent] = useState('');
  const [videoURL, setVideoURL] = useState('');
  const [milestone, setMilestone] = useState(false);
  const [image, setImage] = useState<File | null>(null);
  const [errors, setErrors] = useState<{ title?: string; media?: string }>({});
  const fileInput = useRef<HTMLInputElement>(null);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const found = {
      title: title.trim() ? undefined : TITLE_REQUIRED,
      media: image && videoURL.trim() ? ONE_MEDIA : undefined,
    };
    setErrors(found);
    if (found.title || found.media) return;
    create.mutate(
      { title: title.trim(), content: content.trim(), videoURL: videoURL.trim(), milestone, image },
      { onSuccess: onDone },
    );
  };

  return (
    <form
      onSubmit={submit}
      noValidate
      aria-label="New update"
      className="mt-4 flex flex-col gap-4 rounded-xl border border-border bg-surface p-4"
    >
      <Field id="update-title" label="Title" error={errors.title}>
        {(control) => (
          <Input
            {...control}
            maxLength={200}
            value={title}
            onChange={(event) => setTitle(event.target.value)}
          />
        )}
      </Field>
      <Field id="update-content" label="Text">
        <Textarea
          id="update-content"
          rows={4}
          maxLength={5000}
          value={content}
          onChange={(event) => setContent(event.target.value)}
        />
      </Field>
      <Field
        id="update-image"
        label="Picture (optional)"
        hint="PNG, JPEG, GIF or WebP, at most 5 MB. Location and camera details are removed."
        error={errors.media}
      >
        {(control) => (
          <input
            {...control}
            ref={fileInput}
            type="file"
            accept={IMAGE_CONTENT_TYPES.join(',')}
            className="text-sm"
            onChange={(event) => setImage(event.target.files?.[0] ?? null)}
          />
        )}
      </Field>
      <Field
        id="update-video"
        label="Video link (optional)"
        hint="A YouTube, Vimeo or Hudl address."
      >
        <Input
          id="update-video"
          type="url"
          inputMode="url"
          maxLength={500}
          value={videoURL}
          onChange={(event) => setVideoURL(event.target.value)}
        />
      </Field>
      <label className="flex items-center gap-2 text-sm font-medium">
        <input
          type="checkbox"
          className="size-4 accent-primary"
          checked={milestone}
          onChange={(event) => setMilestone(event.target.checked)}
        />
        Mark as a milestone
      </label>
      <p className="text-xs text-muted-foreground">
        An update with a picture or a video link is checked by our moderators before anyone else
        sees it.
      </p>
      <div className="flex flex-wrap gap-2">
        <Button type="submit" disabled={create.isPending}>
          {create.progress != null
            ? `Uploading… ${Math.round(create.progress * 100)}%`
            : create.isPending
              ? 'Posting…'
              : 'Post update'}
        </Button>
        <Button type="button" variant="outline" onClick={onDone} disabled={create.isPending}>
          Cancel
        </Button>
      </div>
    </form>
  );
}
