/** s3rver for the file bench, in a process of its own: prints its endpoint, serves until killed. */
import { startS3Server } from '../support/s3-server';

startS3Server('medu-bench').then(
  (s3) => console.log(s3.endpoint),
  (error) => {
    console.error(error);
    process.exit(1);
  },
);
