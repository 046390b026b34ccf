import { pipeline, Readable, Transform } from 'node:stream';
import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  PutObjectCommand,
  S3Client,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { UnreachableError } from '../../../core/outbound';
import { contentDisposition, type ObjectStore, type S3Settings } from './object-store';

export function s3Store(settings: S3Settings): Omit<ObjectStore, 'probe'> {
  const { outbound } = settings;
  const client = new S3Client({
    endpoint: settings.endpoint || undefined,
    region: settings.region,
    forcePathStyle: settings.pathStyle,
    credentials: { accessKeyId: settings.accessKeyId, secretAccessKey: settings.secretAccessKey },
    // The SDK's default checksums (aws-chunked bodies with trailers, a checksum in presigned URLs) are not understood
    // by every S3-compatible server; send them only where the operation requires one.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
    // every connection to the endpoint checked, and made to the address checked (core/outbound.ts)
    requestHandler: { httpAgent: outbound.agent('http:'), httpsAgent: outbound.agent('https:') },
  });
  // Outermost, after the SDK's retries: a failure the service did not answer (a refused address, a closed port, a
  // time-out, a TLS error) says only that the store could not be reached; the log says why.
  client.middlewareStack.add(
    (next) => async (args) => {
      try {
        return await next(args);
      } catch (err) {
        if (answered(err)) throw err;
        throw new UnreachableError(outbound.failed(err, { store: 's3', endpoint: settings.endpoint ?? 'aws' }));
      }
    },
    { step: 'initialize', name: 'unreachableStore' },
  );
  const Bucket = settings.bucket;
  const prefix = settings.basePath?.replace(/^\/+|\/+$/g, '');
  const keyOf = (key: string) => (prefix ? `${prefix}/${key}` : key);

  return {
    async put(key, body, contentType) {
      let size = 0;
      let sourceError: Error | undefined;
      const counted = new Transform({
        transform(chunk: Buffer, _encoding, done) {
          size += chunk.length;
          done(null, chunk);
        },
      });
      pipeline(body, counted, (err) => {
        sourceError = err ?? undefined;
      });
      // Upload sends parts of 5 MB (4 at a time) as they fill, so memory stays bounded whatever the object's size.
      // two parts of 5 MB in flight at most: what an upload holds in memory, whatever its size
      const upload = new Upload({
        client,
        queueSize: 2,
        params: { Bucket, Key: keyOf(key), Body: counted, ContentType: contentType },
      });
      try {
        await upload.done();
      } catch (err) {
        // When the source fails after parts were sent, the abort of the multipart upload may fail too and hide why.
        const cause = sourceError ?? err;
        counted.destroy();
        throw cause;
      }
      return { size };
    },

    async get(key, range) {
      try {
        const { Body } = await client.send(
          new GetObjectCommand({
            Bucket,
            Key: keyOf(key),
            Range: range && `bytes=${range.start}-${range.end ?? ''}`,
          }),
        );
        if (!(Body instanceof Readable)) throw new Error('the S3 client answered a body that is not a Node stream');
        return Body;
      } catch (err) {
        if (isMissing(err)) return undefined;
        throw err;
      }
    },

    async head(key) {
      try {
        const out = await client.send(new HeadObjectCommand({ Bucket, Key: keyOf(key) }));
        return { size: out.ContentLength ?? 0, contentType: out.ContentType };
      } catch (err) {
        if (isMissing(err)) return undefined;
        throw err;
      }
    },

    async delete(key) {
      await client.send(new DeleteObjectCommand({ Bucket, Key: keyOf(key) }));
    },

    async presignPut(key, contentType, expiresInSec) {
      const command = new PutObjectCommand({ Bucket, Key: keyOf(key), ContentType: contentType });
      // The presigner leaves Content-Type unsigned unless asked; signed, the browser cannot store another type.
      const url = await getSignedUrl(client, command, {
        expiresIn: expiresInSec,
        signableHeaders: new Set(['content-type']),
      });
      return { url, headers: { 'Content-Type': contentType } };
    },

    async presignGet(key, expiresInSec, downloadName, inline = false) {
      const disposition = downloadName ? contentDisposition(downloadName, inline) : inline ? 'inline' : undefined;
      const command = new GetObjectCommand({ Bucket, Key: keyOf(key), ResponseContentDisposition: disposition });
      return getSignedUrl(client, command, { expiresIn: expiresInSec });
    },
  };
}

/** Whether the S3 service answered the failure (an HTTP status), rather than never being reached. */
function answered(err: unknown): boolean {
  return typeof (err as { $metadata?: { httpStatusCode?: unknown } })?.$metadata?.httpStatusCode === 'number';
}

/** A missing key answers NoSuchKey on GET and a bare 404 on HEAD (which has no body to name the error). */
function isMissing(err: unknown): boolean {
  return err instanceof Error && (err.name === 'NoSuchKey' || err.name === 'NotFound');
}
