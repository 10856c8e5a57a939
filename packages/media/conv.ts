import sharp from 'sharp';

for (const f of process.argv.slice(2))
  await sharp(f)
    .resize(768, 768, { fit: 'inside' })
    .png()
    .toFile(f.replace(/\.\w+$/, '.view.png'));
