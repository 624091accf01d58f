import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';

import { VideoEmbed } from './video-embed';

const video = {
  host: 'vimeo' as const,
  url: 'https://vimeo.com/76979871',
  embedUrl: 'https://player.vimeo.com/video/76979871?dnt=1',
};

describe('VideoEmbed', () => {
  it('puts nothing of the host on the page until the reader asks, then its privacy embed', async () => {
    const { container } = render(<VideoEmbed video={video} title="Cup final" />);

    expect(container.querySelector('iframe, img, script, link')).toBeNull();
    expect(container.innerHTML).not.toContain('vimeo.com');
    expect(screen.getByText(/Loads the video from Vimeo/)).toBeInTheDocument();

    await userEvent.click(screen.getByRole('button', { name: 'Play video: Cup final' }));

    const frame = screen.getByTitle('Cup final (video on Vimeo)');
    expect(frame).toHaveAttribute('src', 'https://player.vimeo.com/video/76979871?dnt=1');
  });
});
