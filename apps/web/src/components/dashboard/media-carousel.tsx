/** Images one at a time, with arrows, dots and the keyboard's arrows (spec §2 media carousel). */
import { Carousel, Empty, Image } from 'antd';
import { useTranslation } from 'react-i18next';

export interface CarouselImage {
  id: number;
  url: string;
  name: string;
}

export function MediaCarousel({
  images,
  emptyText,
  height = 200,
}: {
  images: readonly CarouselImage[];
  emptyText: string;
  height?: number;
}) {
  const { t } = useTranslation();
  if (images.length === 0) return <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={emptyText} />;
  return (
    <Carousel arrows dots draggable adaptiveHeight={false} className="sluice-media-carousel">
      {images.map((image, index) => (
        <div key={image.id}>
          <Image
            src={image.url}
            alt={t('dashboard.imageOf', { index: index + 1, count: images.length, name: image.name })}
            height={height}
            width="100%"
            style={{ objectFit: 'contain' }}
          />
        </div>
      ))}
    </Carousel>
  );
}
