import { Tag } from "antd";
import { useTranslation } from "react-i18next";

/** Online (green), online with a warning (amber) or offline (grey), in words as well as colour. */
export function StateTag({
  online,
  warning = false,
}: {
  online: boolean;
  warning?: boolean;
}) {
  const { t } = useTranslation();
  if (online && warning)
    return <Tag color="warning">{t("map.state.warning")}</Tag>;
  if (online) return <Tag color="success">{t("map.state.online")}</Tag>;
  return <Tag>{t("map.state.offline")}</Tag>;
}
