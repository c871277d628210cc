/** A project's or station's images: the cover first; users who may manage projects upload (cropped) and delete. */
import { useState } from "react";
import { App, Button, Empty, Flex, Image, Popconfirm, Tag } from "antd";
import { DeleteOutlined, UploadOutlined } from "@ant-design/icons";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useTranslation } from "react-i18next";
import { PROJECT_IMAGE_LIMIT } from "@sluice/shared/project.schema";
import { ImageCropperDialog } from "../../../components/image-cropper/image-cropper-dialog";
import { errorMessage } from "../../../lib/form-errors";
import { useGroupId } from "../api/group";
import {
  projectImagesQueryOptions,
  uploadProjectImage,
  useDeleteProjectImage,
} from "../api/projects-api";
import { sitesKeys } from "../api/sites-keys";
import { useMayOperate } from "../../../lib/operates";
import "./site-items.css";

export function ProjectImages({
  projectId,
  name,
}: {
  projectId: number;
  name: string;
}) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const g = useGroupId();
  const mayManage = useMayOperate("project.manage");
  const client = useQueryClient();
  const { data: images = [], isPending } = useQuery(
    projectImagesQueryOptions(g, projectId),
  );
  const remove = useDeleteProjectImage(g, projectId);
  const [open, setOpen] = useState(false);

  return (
    <>
      {mayManage && (
        <Button
          icon={<UploadOutlined />}
          style={{ marginBottom: 12 }}
          onClick={() => {
            setOpen(true);
          }}
        >
          {t("sites.images.upload")}
        </Button>
      )}
      {images.length === 0 && !isPending ? (
        <Empty description={t("sites.images.none")} />
      ) : (
        <Flex gap={12} wrap>
          {images.map((image) => (
            <figure key={image.Id} className="sluice-site-image">
              <Image
                src={image.url}
                alt={t("sites.images.alt", { name, n: image.Sn + 1 })}
                width={200}
                height={80}
                style={{ objectFit: "cover", borderRadius: 6 }}
              />
              <figcaption>
                {image.Sn === 0 ? (
                  <Tag color="green">{t("sites.images.cover")}</Tag>
                ) : (
                  <Tag>{t("sites.images.rank", { n: image.Sn })}</Tag>
                )}
                {mayManage && (
                  <Popconfirm
                    title={t("sites.images.deleteConfirm")}
                    okText={t("sites.actions.delete")}
                    cancelText={t("common.cancel")}
                    onConfirm={() => {
                      void remove.mutateAsync(image.Id).then(
                        (res) =>
                          void message.success(
                            res.message || t("sites.actions.deleted"),
                          ),
                        (error: unknown) =>
                          void message.error(errorMessage(error)),
                      );
                    }}
                  >
                    <Button
                      size="small"
                      type="text"
                      danger
                      icon={<DeleteOutlined />}
                      aria-label={t("sites.images.delete")}
                    />
                  </Popconfirm>
                )}
              </figcaption>
            </figure>
          ))}
        </Flex>
      )}
      <ImageCropperDialog
        open={open}
        title={t("sites.images.dialogTitle", { name })}
        onClose={() => {
          setOpen(false);
        }}
        shapes={[
          { key: "cover", label: t("cropper.cover"), aspect: 5 },
          { key: "normal", label: t("cropper.normal"), aspect: 2.5 },
        ]}
        defaultShape={images.length === 0 ? "cover" : "normal"}
        serverImages={images.map((image) => ({
          id: image.Id,
          url: image.url,
          label: t("sites.images.alt", { name, n: image.Sn + 1 }),
        }))}
        maxBytes={PROJECT_IMAGE_LIMIT}
        onUpload={async (file, fileName, shape) => {
          const res = await uploadProjectImage(
            g,
            projectId,
            file,
            fileName,
            shape === "cover",
          );
          await client.invalidateQueries({ queryKey: sitesKeys.all });
          return res.message;
        }}
      />
    </>
  );
}
