import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { fileRecord } from '../../../uploads/file-fixture.ts';
import { FilePreview } from './file-preview.tsx';

describe('FilePreview', () => {
  it('fits an image first, then zooms in steps of its real pixels', async () => {
    render(<FilePreview file={fileRecord({ name: 'cat.png', metadata: { width: 300, height: 200 } })} />);
    const image = screen.getByRole('img', { name: 'cat.png' });
    expect(image.style.maxWidth).toBe('100%');
    expect(screen.getByRole('button', { name: 'Zoom out' })).toBeDisabled();
    await userEvent.click(screen.getByRole('button', { name: 'Zoom in' }));
    expect(image.style.width).toBe('300px');
    await userEvent.click(screen.getByRole('button', { name: 'Zoom in' }));
    expect(image.style.width).toBe('600px');
    expect(image.style.imageRendering).toBe('pixelated');
    expect(screen.getByRole('region', { name: 'cat.png, 200%' })).toContainElement(image);
    await userEvent.click(screen.getByRole('button', { name: 'Fit' }));
    expect(image.style.maxWidth).toBe('100%');
  });

  it('plays audio and video in players, and says what to do with other types', () => {
    const { rerender, container } = render(
      <FilePreview
        file={fileRecord({ name: 'talk.mp3', media_type: 'audio/mpeg', url: 'http://api.test/a.mp3' })}
      />,
    );
    expect(container.querySelector('audio')).toHaveAttribute('src', 'http://api.test/a.mp3');
    rerender(
      <FilePreview
        file={fileRecord({ name: 'clip.mp4', media_type: 'video/mp4', url: 'http://api.test/v.mp4' })}
      />,
    );
    expect(container.querySelector('video')).toHaveAttribute('controls');
    rerender(<FilePreview file={fileRecord({ name: 'notes.pdf', media_type: 'application/pdf' })} />);
    expect(screen.getByText('No preview for application/pdf. Download it to open it.')).toBeInTheDocument();
  });
});
