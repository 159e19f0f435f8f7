import {
  applyDecorators,
  CallHandler,
  ExecutionContext,
  Injectable,
  NestInterceptor,
  UseInterceptors,
} from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { ApiBody, ApiConsumes, type SchemaObject } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import multer, { MulterError } from 'multer';
import { Observable } from 'rxjs';
import { DomainError, validationFailed } from '../errors/domain-error';
import { ApiErrorResponse } from './api-errors.decorators';

/**
 * What an upload route takes: one file field and its own size limit (INTERFACES.md: not the 5 MB
 * JSON one). With `files` the field takes up to `files.max` files (`@UploadedFiles()`, an array);
 * without it, one file (`@UploadedFile()`).
 */
export interface MultipartUploadOptions {
  /** The form field carrying the file(s). */
  field: string;
  /** Each file's limit. */
  maxBytes: number;
  /** The limit as people read it, for the 413 message (`25 MB`). */
  maxLabel: string;
  /** Many files in `field`: at most `max` (more → 400 VALIDATION_FAILED naming the field). */
  files?: { max: number };
  /** All files together (413 PAYLOAD_TOO_LARGE above it), with its label (`100 MB`). */
  maxTotal?: { bytes: number; label: string };
  /** The form's fields for OpenAPI (`format: binary` for the file). */
  schema: SchemaObject;
}

export const MULTIPART_UPLOAD = Reflector.createDecorator<MultipartUploadOptions>();

export const isMultipart = (req: Request): boolean =>
  /^multipart\/form-data\s*(;|$)/i.test(req.headers['content-type'] ?? '');

/** Text fields of the form: few and short (a title, an id). */
const FIELD_LIMITS = { fields: 20, fieldSize: 64 * 1024, parts: 25 } as const;

/** What a form may add around its files' bytes (boundaries, part headers, text fields). */
const FORM_OVERHEAD_BYTES = 1024 * 1024;

/**
 * Reads the multipart body of a `@MultipartUpload()` route (multer, in memory, bounded): the file
 * as `@UploadedFile()` (or the files as `@UploadedFiles()`), text fields as the `@Body()`. Not
 * multipart (JSON included) → 415 UNSUPPORTED_MEDIA_TYPE; a file over its limit, or all of them
 * over `maxTotal` (told by `Content-Length` before reading, else counted after) → 413
 * PAYLOAD_TOO_LARGE; too many files or a malformed form → 400.
 */
@Injectable()
export class MultipartInterceptor implements NestInterceptor {
  constructor(private readonly reflector: Reflector) {}

  async intercept(ctx: ExecutionContext, next: CallHandler): Promise<Observable<unknown>> {
    const options = this.reflector.get(MULTIPART_UPLOAD, ctx.getHandler());
    const req = ctx.switchToHttp().getRequest<Request>();
    const res = ctx.switchToHttp().getResponse<Response>();
    if (!isMultipart(req)) {
      throw new DomainError('UNSUPPORTED_MEDIA_TYPE', 'Send the file as multipart/form-data.');
    }
    const total = options.maxTotal;
    const declared = Number(req.headers['content-length']);
    if (total && Number.isFinite(declared) && declared > total.bytes + FORM_OVERHEAD_BYTES) {
      throw tooLargeTogether(total.label);
    }
    const maxFiles = options.files?.max ?? 1;
    // file names as UTF-8 (multer's option; its types predate it)
    const multerOptions: multer.Options & { defParamCharset: string } = {
      storage: multer.memoryStorage(),
      defParamCharset: 'utf8',
      limits: {
        ...FIELD_LIMITS,
        parts: Math.max(FIELD_LIMITS.parts, maxFiles + FIELD_LIMITS.fields),
        files: maxFiles,
        fileSize: options.maxBytes,
      },
    };
    const upload = multer(multerOptions);
    const read = options.files ? upload.array(options.field, maxFiles) : upload.single(options.field);
    await new Promise<void>((resolve, reject) =>
      read(req, res, (err: unknown) => (err ? reject(uploadError(err, options)) : resolve())),
    );
    if (total && Array.isArray(req.files)) {
      const sum = req.files.reduce((bytes, file) => bytes + file.size, 0);
      if (sum > total.bytes) {
        req.files = [];
        throw tooLargeTogether(total.label);
      }
    }
    return next.handle();
  }
}

const tooLargeTogether = (label: string) =>
  new DomainError('PAYLOAD_TOO_LARGE', `The files together are larger than ${label}.`);

function uploadError(err: unknown, options: MultipartUploadOptions): DomainError {
  if (err instanceof MulterError) {
    if (err.code === 'LIMIT_FILE_SIZE') {
      return new DomainError(
        'PAYLOAD_TOO_LARGE',
        options.files
          ? `A file is larger than ${options.maxLabel}.`
          : `The file is larger than ${options.maxLabel}.`,
      );
    }
    if (options.files && (err.code === 'LIMIT_UNEXPECTED_FILE' || err.code === 'LIMIT_FILE_COUNT')) {
      return validationFailed([
        {
          path: options.field,
          message: `send 1 to ${options.files.max} files, in the field \`${options.field}\``,
        },
      ]);
    }
    if (err.code === 'LIMIT_UNEXPECTED_FILE' || err.code === 'LIMIT_FILE_COUNT') {
      return validationFailed([
        { path: err.field ?? options.field, message: `send one file, in the field \`${options.field}\`` },
      ]);
    }
    return validationFailed([{ path: err.field ?? '', message: err.message.toLowerCase() }]);
  }
  return new DomainError('BAD_REQUEST', 'The multipart body could not be read.');
}

/**
 * A route that takes a `multipart/form-data` upload instead of JSON (the one exception to the
 * JSON-only rule): reads the form, documents it (`multipart/form-data` with `schema`) and its 413/415.
 * One file (`@UploadedFile()`) or, with `files: {max}`, many (`@UploadedFiles()`).
 */
export const MultipartUpload = (options: MultipartUploadOptions) =>
  applyDecorators(
    MULTIPART_UPLOAD(options),
    UseInterceptors(MultipartInterceptor),
    ApiConsumes('multipart/form-data'),
    ApiBody({ schema: options.schema }),
    ApiErrorResponse(
      413,
      options.files
        ? `PAYLOAD_TOO_LARGE: a file is larger than ${options.maxLabel}` +
            (options.maxTotal ? `, or all of them together larger than ${options.maxTotal.label}.` : '.')
        : `PAYLOAD_TOO_LARGE: the file is larger than ${options.maxLabel}.`,
    ),
    ApiErrorResponse(415, 'UNSUPPORTED_MEDIA_TYPE: the body is not `multipart/form-data`.'),
  );
