import { describe, expect, it } from 'vitest';
import { isReadableFormat, parseProbe } from './ffmpeg-probe.ts';

const MP4 = `Input #0, mov,mp4,m4a,3gp,3g2,mj2, from 'clip.mp4':
  Metadata:
    major_brand     : isom
    encoder         : Lavf58.24.100
  Duration: 00:00:02.02, start: 0.000000, bitrate: 121 kb/s
    Stream #0:0(und): Video: h264 (High) (avc1 / 0x31637661), yuv420p, 320x240 [SAR 1:1 DAR 4:3], 39 kb/s, 10 fps, 10 tbr, 10240 tbn, 20 tbc (default)
    Metadata:
      handler_name    : VideoHandler
    Stream #0:1(und): Audio: aac (LC) (mp4a / 0x6134706D), 44100 Hz, mono, fltp, 73 kb/s (default)
At least one output file must be specified
`;

describe('parseProbe', () => {
  it('reads format, duration, picture and sound of `ffmpeg -i`', () => {
    expect(parseProbe(MP4)).toEqual({
      format: 'mov,mp4,m4a,3gp,3g2,mj2',
      durationSeconds: 2.02,
      video: { codec: 'h264', width: 320, height: 240, fps: 10 },
      audio: { codec: 'aac', sampleRate: 44100, channels: 'mono' },
    });
  });

  it('turns rotated pictures upright', () => {
    const rotated = MP4.replace('      handler_name    : VideoHandler', '      rotate          : 270');
    expect(parseProbe(rotated)?.video).toMatchObject({ width: 240, height: 320 });
    const matrix = MP4.replace(
      '      handler_name    : VideoHandler',
      '    Side data:\n      displaymatrix: rotation of -90.00 degrees',
    );
    expect(parseProbe(matrix)?.video).toMatchObject({ width: 240, height: 320 });
  });

  it('applies non-square pixels to the width', () => {
    const anamorphic = MP4.replace('320x240 [SAR 1:1 DAR 4:3]', '720x576 [SAR 64:45 DAR 16:9]');
    expect(parseProbe(anamorphic)?.video).toMatchObject({ width: 1024, height: 576 });
  });

  it('knows stills, GIFs (no duration) and sound-only files; cover art is not a picture', () => {
    expect(
      parseProbe(`Input #0, png_pipe, from 'x':
  Duration: N/A, bitrate: N/A
    Stream #0:0: Video: png, rgb24(pc), 320x240 [SAR 1:1 DAR 4:3], 25 tbr, 25 tbn, 25 tbc`),
    ).toEqual({
      format: 'png_pipe',
      durationSeconds: null,
      video: { codec: 'png', width: 320, height: 240, fps: 25 },
      audio: null,
    });
    const mp3 = parseProbe(`Input #0, mp3, from 'x':
  Duration: 00:01:02.50, start: 0.025057, bitrate: 65 kb/s
    Stream #0:0: Audio: mp3, 44100 Hz, stereo, fltp, 64 kb/s
    Stream #0:1: Video: mjpeg (Baseline), yuvj420p(pc), 500x500 [SAR 1:1 DAR 1:1], 90k tbr, 90k tbn, 90k tbc (attached pic)`);
    expect(mp3).toMatchObject({ format: 'mp3', durationSeconds: 62.5, video: null });
    expect(mp3?.audio).toMatchObject({ codec: 'mp3', channels: 'stereo' });
  });

  it('is null when ffmpeg could not open the input', () => {
    expect(parseProbe('x: Invalid data found when processing input\n')).toBeNull();
  });
});

describe('isReadableFormat', () => {
  it('takes media demuxers and refuses playlists, lists and devices', () => {
    for (const format of ['mov,mp4,m4a,3gp,3g2,mj2', 'matroska,webm', 'mp3', 'wav', 'gif', 'png_pipe']) {
      expect(isReadableFormat(format), format).toBe(true);
    }
    for (const format of ['hls,applehttp', 'concat', 'lavfi', 'tty', 'sdp', 'subviewer']) {
      expect(isReadableFormat(format), format).toBe(false);
    }
  });
});
