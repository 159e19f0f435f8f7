import { MediaCleaner, type MediaCleanJson } from '@app/listings';
import { OpsCommand } from './ops-command';

export const mediaCleanCommand: OpsCommand<void, MediaCleanJson> = {
  name: 'media:clean',
  usage: '',
  summary:
    're-encodes listing photos stored before uploads were cleaned (no EXIF/GPS; variants) and deletes the stored uploads',
  flags: {},
  options: {},
  parse: () => undefined,
  run: (app, _input, progress) => app.get(MediaCleaner).clean(progress),
  describe: (result) =>
    `Photos cleaned: ${result.cleaned} uploads (${result.rows} rows); left as they were: ${result.skipped}.`,
};
